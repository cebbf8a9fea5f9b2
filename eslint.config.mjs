// n8n's default lint configuration for community nodes (@n8n/node-cli, with n8n Cloud support) on
// the shipped code (nodes/, credentials/) and package.json. test/ and sandbox/ are programs that
// exercise the package, not part of it: the cloud rules forbid the Node.js built-ins and globals
// they need, so they are left out here (README, Development, says why strict is off). scripts/
// (the demo, end-to-end and browser checks, verify, the benchmark) gets typescript-eslint's
// recommended rules instead.
import { globalIgnores } from 'eslint/config';
import tseslint from 'typescript-eslint';
import { config } from '@n8n/node-cli/eslint';

const SCRIPTS = 'scripts/**';

export default [
	globalIgnores(['test/**', 'sandbox/**', 'coverage/**', '.n8n-app/**', '.demo/**', '.tools/**']),
	// n8n's blocks that name files (its cloud and community rules) stay off scripts/.
	...config.map((block) => (block.files ? { ...block, ignores: [...(block.ignores ?? []), SCRIPTS] } : block)),
	...tseslint.config({ files: ['scripts/**/*.ts'], extends: [tseslint.configs.recommended] }),
];
