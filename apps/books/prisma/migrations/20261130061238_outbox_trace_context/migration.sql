-- Decision 0043: the trace context and request id of the work that wrote each event, for the relay to pass on
ALTER TABLE "outbox_events" ADD COLUMN "trace_context" TEXT;
