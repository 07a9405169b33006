// webnn::Error onto Python exceptions. The spec's TypeError is webnn.TypeError, a subclass of both
// Python's TypeError and ValueError: the spec throws it for a bad value (a shape, an axis, a
// layout), which Python code (pywebnn's included) catches as ValueError, and `except TypeError`
// keeps working. The DOMException names are classes of the webnn module, DataError a ValueError
// and the others RuntimeErrors, so `except ValueError` / `except RuntimeError` clauses written for
// pywebnn still catch them. The message is the library's, without the kind prefix (the class names
// the kind).
#include "common.hpp"

namespace webnn::python {

namespace {

struct ErrorClass {
  ErrorKind kind;
  const char* name;
  PyObject* base;
  const char* doc;
  PyObject* type = nullptr;
};

ErrorClass error_classes[] = {
    {ErrorKind::kTypeError, "TypeError", nullptr,  // bases: (TypeError, ValueError), set in bind_errors
     "The spec's TypeError: an argument or operand the spec rejects (a data type, shape, axis,\n"
     "layout, or a value of the wrong type). A subclass of both TypeError and ValueError."},
    {ErrorKind::kDataError, "DataError", PyExc_ValueError,
     "The spec's DataError: data that does not fit (a graph or weights file, a buffer)."},
    {ErrorKind::kOperationError, "OperationError", PyExc_RuntimeError,
     "The spec's OperationError: an operation failed while running (compilation, compute)."},
    {ErrorKind::kNotSupportedError, "NotSupportedError", PyExc_RuntimeError,
     "The spec's NotSupportedError: valid, but not supported by this implementation or backend."},
    {ErrorKind::kInvalidStateError, "InvalidStateError", PyExc_RuntimeError,
     "The spec's InvalidStateError: the object is destroyed, lost or already built."},
    {ErrorKind::kAbortError, "AbortError", PyExc_RuntimeError, "The spec's AbortError: the work was aborted."},
    {ErrorKind::kUnknownError, "UnknownError", PyExc_RuntimeError,
     "The spec's UnknownError: a failure with no more specific kind (for example out of threads)."},
};

PyObject* class_of(ErrorKind kind) {
  for (const ErrorClass& c : error_classes)
    if (c.kind == kind) return c.type;
  return PyExc_RuntimeError;  // unreachable: every kind has its class
}

}  // namespace

void bind_errors(py::module_& m) {
  for (ErrorClass& c : error_classes) {
    const std::string qualified = std::string("webnn.") + c.name;
    py::object bases = c.base ? py::reinterpret_borrow<py::object>(c.base)
                              : py::make_tuple(py::handle(PyExc_TypeError), py::handle(PyExc_ValueError));
    c.type = PyErr_NewExceptionWithDoc(qualified.c_str(), c.doc, bases.ptr(), nullptr);
    if (!c.type) throw py::error_already_set();
    m.add_object(c.name, py::handle(c.type));  // the module holds the reference
  }
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const Error& e) {
      PyErr_SetString(class_of(e.kind()), e.message().c_str());
    }
  });
}

}  // namespace webnn::python
