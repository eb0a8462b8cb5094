/**
 * The trace analysis process: a short-lived child of the server that parses
 * one raw trace (read whole from stdin) with DevTools' trace engine, sends
 * back the texts the server keeps (analysis.ts traceReport) over IPC, and
 * exits. The engine's code and the parsed model never enter the server's
 * memory, and what they took goes back to the system with this process. It
 * exits with the server too (IPC disconnect), even mid-analysis.
 */
import {errorMessage} from '../../util/async.js';
import {loadTraceBundle} from '../vendor.js';
import {analyzeTrace, traceReport} from './analysis.js';
import type {TraceHostConfig, TraceHostMessage} from './hostProtocol.js';

const config = JSON.parse(process.argv[2] ?? '{}') as TraceHostConfig;

function send(message: TraceHostMessage): Promise<void> {
  // The callback comes once the message is written (or could not be): exiting earlier could cut it.
  return new Promise(resolve => (process.send ? process.send(message, () => resolve()) : resolve()));
}

async function readInput(): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) {
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

async function analyze(): Promise<TraceHostMessage> {
  try {
    // The bundle loads while the server is still reading the trace from Chrome.
    const [input] = await Promise.all([readInput(), loadTraceBundle()]);
    const trace = await analyzeTrace(input, config.conditions);
    return {ok: true, report: traceReport(trace, config.summaryScope)};
  } catch (error) {
    return {ok: false, message: errorMessage(error)};
  }
}

process.on('disconnect', () => process.exit(0));
await send({started: true});
await send(await analyze());
process.exit(0);
