// The lint rules n8n applies to community packages, on the shipped code and package.json.
import tseslint from 'typescript-eslint';
import jsoncParser from 'jsonc-eslint-parser';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';

const shipped = ['credentials/**/*.ts', 'nodes/**/*.ts'];

export default [
	{ ignores: ['dist/**', 'node_modules/**', '.n8n-app/**', '.demo/**', '.e2e/**', 'coverage/**'] },
	{
		files: shipped,
		languageOptions: { parser: tseslint.parser, parserOptions: { sourceType: 'module' } },
	},
	{ ...n8nCommunityNodesPlugin.configs.recommended, files: [...shipped, 'package.json'] },
	{
		files: ['package.json'],
		languageOptions: { parser: jsoncParser },
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: n8nNodesBase.configs.community.rules,
	},
	{
		files: ['credentials/**/*.ts'],
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: {
			...n8nNodesBase.configs.credentials.rules,
			// This rule is for n8n's own repository (doc slugs); community packages link a URL.
			'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
		},
	},
	{
		files: ['nodes/**/*.ts'],
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: n8nNodesBase.configs.nodes.rules,
	},
];
