/* WEBNN_EXPORT marks what libwebnn.so exports: the C ABI (webnn/webnn.h) and the C++ API
 * (webnn/webnn.hpp, webnn/types.hpp). The library is compiled with hidden visibility and linked
 * with a version script (src/api/libwebnn.map), so nothing else of it is visible to a program that
 * links it; tests/install/check_exports.py fails on any symbol outside these headers. */
#ifndef WEBNN_EXPORT_H_
#define WEBNN_EXPORT_H_

#if defined(__GNUC__)
#define WEBNN_EXPORT __attribute__((visibility("default")))
#else
#define WEBNN_EXPORT
#endif

#endif /* WEBNN_EXPORT_H_ */
