# Finds the ONNX library (Debian: libonnx-dev, ONNX 1.12) and protobuf, and defines the interface
# target webnn::onnx carrying their headers, the compile definitions the ONNX headers need
# (ONNX_ML=1, ONNX_NAMESPACE=onnx: Debian builds the -ml protobufs) and the libraries.
#
# ONNX's CMake package is used when it loads; otherwise the headers and libraries are looked up
# directly, so a distribution that ships no (or a broken) ONNXConfig.cmake still works.
find_package(Protobuf REQUIRED)
find_package(ONNX CONFIG QUIET)
add_library(webnn_onnx_deps INTERFACE)
add_library(webnn::onnx ALIAS webnn_onnx_deps)
if(TARGET onnx AND TARGET onnx_proto)
  target_link_libraries(webnn_onnx_deps INTERFACE onnx onnx_proto protobuf::libprotobuf)
  message(STATUS "webnn: ONNX ${ONNX_VERSION} (CMake package)")
else()
  find_path(ONNX_INCLUDE_DIR onnx/onnx_pb.h)
  find_library(ONNX_LIBRARY NAMES onnx)
  find_library(ONNX_PROTO_LIBRARY NAMES onnx_proto)
  if(NOT ONNX_INCLUDE_DIR OR NOT ONNX_LIBRARY OR NOT ONNX_PROTO_LIBRARY)
    message(FATAL_ERROR "webnn: the ONNX library was not found (Debian: apt-get install libonnx-dev; scripts/setup.sh)")
  endif()
  target_include_directories(webnn_onnx_deps SYSTEM INTERFACE ${ONNX_INCLUDE_DIR})
  target_compile_definitions(webnn_onnx_deps INTERFACE ONNX_ML=1 ONNX_NAMESPACE=onnx)
  target_link_libraries(webnn_onnx_deps INTERFACE ${ONNX_LIBRARY} ${ONNX_PROTO_LIBRARY} protobuf::libprotobuf)
  message(STATUS "webnn: ONNX from ${ONNX_LIBRARY}")
endif()
