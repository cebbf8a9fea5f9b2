/**
 * Runs before every test file (jest `setupFiles`), before n8n-core is loaded: n8n-core reads its
 * configuration from the environment once, when its classes are first constructed.
 */
import { mkdtempSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

const env = process.env;

// n8n-core writes `<N8N_USER_FOLDER>/.n8n/config` on first use: never the developer's ~/.n8n.
// The root comes from globalSetup (removed by globalTeardown); a run without it uses the OS temp.
env.N8N_USER_FOLDER = mkdtempSync(join(env.N8N_PG_TEST_ROOT ?? tmpdir(), 'n8n-user-'));
// A fixed key keeps n8n-core from generating one and printing a notice about it. Test value only.
env.N8N_ENCRYPTION_KEY = 'test-only-encryption-key-not-a-secret';
// The temp folder's permissions are whatever the OS gives; the check would only warn.
env.N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS = 'false';
env.N8N_LOG_LEVEL = env.N8N_LOG_LEVEL ?? 'silent';
env.N8N_DIAGNOSTICS_ENABLED = 'false';
env.N8N_VERSION_NOTIFICATIONS_ENABLED = 'false';
// Tests talk to servers on 127.0.0.1; a proxy configured on the machine must not intercept them.
const noProxy = ['127.0.0.1', 'localhost', '::1', env.NO_PROXY, env.no_proxy]
	.filter(Boolean)
	.join(',');
env.NO_PROXY = noProxy;
env.no_proxy = noProxy;
