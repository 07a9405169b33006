#!/usr/bin/env python3
"""A small convolutional network built by hand with the webnn builder, run three ways: compute()
with numpy arrays, dispatch() with MLTensors, and AsyncMLContext under asyncio. The result is
checked against the same network written in numpy.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/build_graph.py   # from the build tree
    .venv/bin/python examples/python/build_graph.py                          # installed package
"""
import asyncio

import numpy as np

import webnn

rng = np.random.default_rng(0)
conv_w = rng.standard_normal((8, 3, 3, 3)).astype(np.float32) * 0.2  # oihw
conv_b = rng.standard_normal(8).astype(np.float32) * 0.1
fc_w = rng.standard_normal((8, 4)).astype(np.float32) * 0.5
image = rng.random((1, 3, 16, 16), dtype=np.float32)


def build(context):
    builder = context.create_graph_builder()
    x = builder.input("image", [1, 3, 16, 16], "float32")
    # Options are keyword arguments named as in the spec, in snake_case.
    y = builder.conv2d(x, builder.constant(conv_w), padding=[1, 1, 1, 1], strides=[2, 2],
                       bias=builder.constant(conv_b))
    y = builder.clamp(y, min_value=0, max_value=6)                  # relu6
    y = builder.average_pool2d(y)                                   # global: [1, 8, 1, 1]
    y = builder.reshape(y, [1, 8])
    logits = builder.matmul(y, builder.constant(fc_w))
    return builder.build({"probabilities": builder.softmax(logits, axis=1)})


def numpy_reference():
    padded = np.pad(image, ((0, 0), (0, 0), (1, 1), (1, 1)))
    out = np.zeros((1, 8, 8, 8), np.float64)
    for i in range(3):
        for j in range(3):
            patch = padded[:, :, i:i + 16:2, j:j + 16:2]
            out += np.einsum("nchw,oc->nohw", patch, conv_w[:, :, i, j])
    out = np.clip(out + conv_b[None, :, None, None], 0, 6).mean(axis=(2, 3))
    logits = out @ fc_w
    e = np.exp(logits - logits.max())
    return e / e.sum()


def main():
    context = webnn.ML().create_context()
    graph = build(context)
    print(graph, "inputs:", graph.inputs, "outputs:", graph.outputs)
    expected = numpy_reference()

    # 1. compute(): numpy in, numpy out.
    probabilities = context.compute(graph, {"image": image})["probabilities"]
    print("compute():  ", np.round(probabilities, 4))

    # 2. dispatch() with tensors: returns at once; read_tensor() waits for the result.
    x = context.create_tensor([1, 3, 16, 16], "float32", writable=True)
    y = context.create_tensor([1, 4], "float32", readable=True)
    context.write_tensor(x, image)
    context.dispatch(graph, {"image": x}, {"probabilities": y})
    print("dispatch(): ", np.round(context.read_tensor(y), 4))

    # 3. asyncio: awaiting the read does not block the event loop.
    async def run_async():
        actx = webnn.AsyncMLContext(context)
        await actx.dispatch(graph, {"image": x}, {"probabilities": y})
        return await actx.read_tensor(y)

    print("asyncio:    ", np.round(asyncio.run(run_async()), 4))
    print("numpy:      ", np.round(expected, 4))
    assert np.allclose(probabilities, expected, atol=1e-5), "webnn and numpy disagree"
    print("webnn agrees with numpy")
    context.destroy()


if __name__ == "__main__":
    main()
