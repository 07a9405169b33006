'use strict';
// Loads the native addon (js/src, built by the project's CMake as build/js/webnn.node). Looked for,
// in order: $WEBNN_NODE_ADDON; webnn.node beside the package (an installed copy); the repository's
// build tree (build/js/webnn.node).
const path = require('node:path');
const fs = require('node:fs');

function candidates() {
  const list = [];
  if (process.env.WEBNN_NODE_ADDON) list.push(path.resolve(process.env.WEBNN_NODE_ADDON));
  list.push(path.join(__dirname, '..', 'webnn.node'));
  list.push(path.join(__dirname, '..', '..', 'build', 'js', 'webnn.node'));
  return list;
}

function load() {
  const tried = candidates();
  for (const file of tried) {
    if (fs.existsSync(file)) return require(file);
  }
  throw new Error(
    `webnn: the native addon was not found (looked for ${tried.join(', ')}); build it with ` +
      'scripts/build.sh, or set WEBNN_NODE_ADDON to its path',
  );
}

module.exports = load();
