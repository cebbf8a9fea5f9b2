// n8n's default lint configuration for community nodes (@n8n/node-cli, with n8n Cloud support) on
// the shipped code (nodes/, credentials/) and package.json. test/, sandbox/ and scripts/ are
// programs that exercise the package, not part of it: the cloud rules forbid the Node.js built-ins
// and globals they need, so they are left out here (README, Development, says why strict is off).
import { globalIgnores } from 'eslint/config';
import { config } from '@n8n/node-cli/eslint';

export default [
	globalIgnores(['test/**', 'sandbox/**', 'scripts/**', 'coverage/**', '.n8n-app/**', '.demo/**', '.tools/**']),
	...config,
];
