// The webnn package as an ES module: import { ml, MLGraphBuilder } from 'webnn'.
import api from './index.js';

export const { ML, MLContext, MLGraph, MLOperand, MLTensor, MLGraphBuilder, ml, installGlobals, loadGraph } = api;
export default api;
