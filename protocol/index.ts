/**
 * Type-only view of the pinned Chrome DevTools Protocol (see protocol/README.md).
 * Everything that sends or receives CDP messages is typed through these aliases.
 */
import type {ProtocolMapping} from 'devtools-protocol/types/protocol-mapping.js';

export type {Protocol} from 'devtools-protocol/types/protocol.js';

/** Every CDP command name, e.g. `'Page.navigate'`. */
export type CdpCommand = keyof ProtocolMapping.Commands;
/** Parameters of a command (an empty object for commands without any). */
export type CdpParams<M extends CdpCommand> = ProtocolMapping.Commands[M]['paramsType'] extends [infer P]
  ? P
  : ProtocolMapping.Commands[M]['paramsType'] extends [(infer P)?]
    ? P | undefined
    : Record<string, never> | undefined;
/** Result of a command. */
export type CdpResult<M extends CdpCommand> = ProtocolMapping.Commands[M]['returnType'];
/** Every CDP event name, e.g. `'Page.loadEventFired'`. */
export type CdpEvent = keyof ProtocolMapping.Events;
/** Payload of an event. */
export type CdpEventParams<E extends CdpEvent> = ProtocolMapping.Events[E] extends [infer P] ? P : undefined;
