'use strict';
// The webnn package: the W3C WebNN API for Node.js over webnn-cpp (docs/javascript.md).
//   const { ml, MLGraphBuilder, installGlobals, loadGraph } = require('webnn');
module.exports = require('./lib/api');
