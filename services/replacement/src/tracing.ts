import { startTracingIfConfigured } from '@trackline/tracing';

// The process's first import (main.ts): the SDK patches http, pg and ioredis as they load, so it
// starts before them, and only when the OTEL_* variables ask for traces (docs/operations.md, Tracing).
startTracingIfConfigured('trackline-replacement');
