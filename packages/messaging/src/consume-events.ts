import type { EventDefinition, EventOfAny } from '@switchyard/contracts';
import type { ConsumerHandle, ConsumerSpec, DeliveryContext, MessageBus } from './bus.ts';
import { UnprocessableEventError } from './errors.ts';

/** A consumer of catalogued events: a {@link ConsumerSpec} whose bindings are the `events`' types. */
export interface EventConsumerSpec<Ds extends readonly EventDefinition[]> extends Omit<ConsumerSpec, 'bindings'> {
  /** The catalogued events this consumer handles; the queue is bound to exactly their types. */
  events: Ds;
}

/** Handles one catalogued event, its payload parsed and typed; switch on `event.type` to narrow `event.data`. */
export type CataloguedEventHandler<Ds extends readonly EventDefinition[]> = (
  event: EventOfAny<Ds>,
  context: DeliveryContext,
) => Promise<void>;

/**
 * Consumes catalogued events: binds the queue to the types of `spec.events` and hands `handler` each event with
 * its payload parsed by the definition's schema. An event of a type this consumer does not know (a binding left
 * on the queue from an earlier version), of another payload version, or whose payload fails the schema, never
 * reaches the handler: it is parked at once with the reason (`UnprocessableEventError`), since retrying cannot help.
 * @throws what {@link MessageBus.consume} throws
 */
export function consumeEvents<const Ds extends readonly EventDefinition[]>(
  bus: MessageBus,
  spec: EventConsumerSpec<Ds>,
  handler: CataloguedEventHandler<Ds>,
): Promise<ConsumerHandle> {
  const { events, ...rest } = spec;
  const byType = new Map<string, EventDefinition>(events.map((definition) => [definition.type, definition]));
  return bus.consume({ ...rest, bindings: [...byType.keys()] }, async (event, context) => {
    const definition = byType.get(event.type);
    if (!definition) throw new UnprocessableEventError(`${event.type} is not an event ${spec.queue} consumes`);
    const version = event.version ?? 1;
    if (version !== definition.version) {
      throw new UnprocessableEventError(
        `${event.type} version ${version} is unknown here (this consumer reads version ${definition.version})`,
      );
    }
    const parsed = definition.schema.safeParse(event.data);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((issue) => `data.${issue.path.join('.')}: ${issue.message}`).join('; ');
      throw new UnprocessableEventError(`${event.type} payload is invalid: ${issues}`);
    }
    await handler({ ...event, data: parsed.data } as EventOfAny<Ds>, context);
  });
}
