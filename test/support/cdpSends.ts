/**
 * The CDP commands a server sent, from its log (CDP_MCP_TRACE_CDP=1 with
 * --logFile; src/cdp/CdpConnection.ts): each with the number of answers the
 * server had taken in before it went. A call's round trips are the distinct
 * numbers among its commands: commands sent together share one, and a
 * command that waited for an answer has a larger one. Unlike times seen by a
 * proxy, this does not depend on the machine's load (a server that loses its
 * core between two commands it sends together still sends both before it
 * reads any answer).
 */
import {readFile, stat} from 'node:fs/promises';

export interface SentCommand {
  method: string;
  /** The session's id; undefined for the browser target. */
  sessionId?: string;
  /** Answers the server had taken in before this command went. */
  after: number;
}

/** The environment and flags that make a server log its commands to `logFile`. */
export function cdpSendsOptions(logFile: string): {env: Record<string, string>; args: string[]} {
  return {env: {CDP_MCP_TRACE_CDP: '1'}, args: ['--logFile', logFile]};
}

export class CdpSends {
  constructor(readonly logFile: string) {}

  /** Where the log ends now (read what comes after with `since`). */
  async mark(): Promise<number> {
    return (await stat(this.logFile).catch(() => ({size: 0}))).size;
  }

  /** The commands logged after `offset`. */
  async since(offset: number): Promise<SentCommand[]> {
    const text = (await readFile(this.logFile)).subarray(offset).toString('utf8');
    const commands: SentCommand[] = [];
    for (const match of text.matchAll(/ cdp send (\S+) session=(\S+) after=(\d+)$/gm)) {
      const [, method = '', session = '-', after = '0'] = match;
      commands.push({method, ...(session === '-' ? {} : {sessionId: session}), after: Number(after)});
    }
    return commands;
  }
}

/** How many times the commands waited on Chrome: the distinct answer counts they went after. */
export function roundTrips(commands: SentCommand[]): number {
  return new Set(commands.map(c => c.after)).size;
}
