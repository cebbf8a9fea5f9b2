// The lint of the code that exercises the package and is not shipped (test/, sandbox/, scripts/):
// typescript-eslint's recommended rules. n8n's configuration in eslint.config.mjs, with n8n Cloud's
// rules, forbids the Node.js built-ins this code needs, so `npm run lint` has ESLint take the
// configuration nearest to each file (ESLINT_FLAGS=unstable_config_lookup_from_file) and each of
// those folders holds an eslint.config.mjs that re-exports this one.
//
// The plugin's own flat configs are used rather than `typescript-eslint`'s `configs` getters: each
// getter records its caller's folder as a TypeScript root, and with two such roots n8n's lint rules
// that parse the credential files (no-credential-reuse) can no longer parse them.
import tsPlugin from '@typescript-eslint/eslint-plugin';

export default [
	...tsPlugin.configs['flat/recommended'].map((block) => ({ ...block, files: ['**/*.ts'] })),
	{
		files: ['**/*.ts'],
		rules: {
			// A leading underscore names what a destructuring leaves out on purpose.
			'@typescript-eslint/no-unused-vars': ['error', { varsIgnorePattern: '^_', argsIgnorePattern: '^_' }],
		},
	},
];
