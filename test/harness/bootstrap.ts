/**
 * Prepares n8n-core for in-process runs. Imported first by every harness module that touches
 * n8n-core, so the capturing logger is in place before n8n-core asks for a logger.
 */
import { Container } from '@n8n/di';
// Not re-exported by n8n-core's index; its interval would keep jest's worker alive.
import { SSHClientsManager } from 'n8n-core/dist/execution-engine/ssh-clients-manager';

import { installCapturingLogger } from './logging';

installCapturingLogger();

// Every node context builds its SSH helpers from this manager, which starts a 60 s cleanup
// interval on construction. Building it now and unref-ing the timer lets the process exit.
const manager = Container.get(SSHClientsManager) as unknown as { cleanupTimer?: NodeJS.Timeout };
manager.cleanupTimer?.unref();
