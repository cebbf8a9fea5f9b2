/**
 * Prepares n8n-core for in-process runs. Imported first by every harness module that touches
 * n8n-core, so the capturing logger is in place before n8n-core asks for a logger.
 */
import { Container } from '@n8n/di';
// Not re-exported by n8n-core's index; its interval would keep jest's worker alive.
import { SSHClientsManager } from 'n8n-core/dist/execution-engine/ssh-clients-manager';

import { installCapturingLogger } from './logging';
import { onTeardown } from './teardown';

installCapturingLogger();

// Every node context builds its SSH helpers from this manager, which starts a 60 s cleanup
// interval on construction and stops it only on the process's 'exit' (which, inside jest's test
// environment, never reaches it). Built now: unref'd so a script's process can exit, and shut down
// when the test file ends, so the interval does not outlive it.
const manager = Container.get(SSHClientsManager);
(manager as unknown as { cleanupTimer?: NodeJS.Timeout }).cleanupTimer?.unref();
onTeardown(() => manager.onShutdown());
