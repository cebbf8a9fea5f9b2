// Moved to test/n8n/queue/executions.ts; scripts/e2e-agent.ts still imports it from here.
export * from '../../test/n8n/queue/executions';
