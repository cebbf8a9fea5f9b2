/**
 * README.md (and docs/DEVELOPMENT.md, where the maintainers' material lives) against the
 * repository: its links resolve, its commands exist, the parameter names it puts in `code` are the
 * nodes' own, its column tables are what the nodes read, every operation has its example, every
 * example workflow is listed with a description that matches what the workflow does, and the
 * README stays a user's guide: short, in plain words, saying first what is assumed.
 */
import { existsSync, readdirSync, readFileSync } from 'fs';
import { join } from 'path';
import type {
	IDataObject,
	INodeParameters,
	INodeProperties,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { DisbursementApi } from '../../credentials/DisbursementApi.credentials';
import { PaymentCollectionApi } from '../../credentials/PaymentCollectionApi.credentials';
import { Disbursement } from '../../nodes/Disbursement/Disbursement.node';
import { PaymentCollection } from '../../nodes/PaymentCollection/PaymentCollection.node';
import { PaymentGatewayTrigger } from '../../nodes/PaymentGatewayTrigger/PaymentGatewayTrigger.node';
import { ENDPOINTS } from '../../nodes/shared/transport/endpoints';
import { TARGETS } from '../../scripts/n8n/targets';
import { resolvedParameters } from '../harness/installedN8n';

const ROOT = join(__dirname, '..', '..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const DEVELOPMENT = readFileSync(join(ROOT, 'docs', 'DEVELOPMENT.md'), 'utf8');
const PACKAGE = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
	name: string;
	version: string;
	author: IDataObject;
	scripts: IDataObject;
	engines: { n8n: string };
	dependencies?: IDataObject;
};
const SCRIPTS = Object.keys(PACKAGE.scripts);

/** The README's text from a `## ` or `### ` heading to the next heading of the same level or above. */
function section(heading: string): string {
	const level = heading.split(' ')[0];
	const start = README.indexOf(`\n${heading}\n`);
	if (start < 0) throw new Error(`README has no heading "${heading}"`);
	const rest = README.slice(start + heading.length + 2);
	const end = rest.search(level === '###' ? /\n#{2,3} / : /\n## /);
	return end < 0 ? rest : rest.slice(0, end);
}

/** GitHub's anchor of a heading. */
/** "Label (`name`)", as the README names a parameter, an option or one of its values. */
const LABELLED_NAME = /[A-Z][\w-]*\)?\**\s\(`([a-z][a-zA-Z]*)`[,)]/g;

const slug = (heading: string) =>
	heading
		.toLowerCase()
		.replace(/[^a-z0-9 -]/g, '')
		.replace(/ /g, '-');

/** Every parameter name, option name and option value a node's description holds. */
function namesOf(description: INodeTypeDescription): Set<string> {
	const names = new Set<string>();
	const walk = (properties: INodeProperties[] | IDataObject[]) => {
		for (const property of properties as IDataObject[]) {
			if (typeof property.name === 'string' && 'type' in property) names.add(property.name);
			if ('value' in property && typeof property.value === 'string') names.add(property.value);
			if (Array.isArray(property.options)) walk(property.options as IDataObject[]);
			if (Array.isArray(property.values)) walk(property.values as IDataObject[]);
		}
	};
	walk(description.properties);
	return names;
}

describe('README links and commands', () => {
	test('every relative link names a file that exists, every #anchor a heading', () => {
		const headings = [...README.matchAll(/^#{1,4} (.+)$/gm)].map((match) => slug(match[1]));
		const links = [...README.matchAll(/\]\(([^)\s]+)\)/g)]
			.map((match) => match[1])
			.filter((link) => !/^https?:/.test(link));
		expect(links.length).toBeGreaterThan(10);
		for (const link of links) {
			if (link.startsWith('#')) expect(headings).toContain(link.slice(1));
			else {
				// A file, or a file's heading: docs/DEVELOPMENT.md#before-publishing.
				const [file, anchor] = link.split('#');
				expect([link, existsSync(join(ROOT, file))]).toEqual([link, true]);
				if (anchor) {
					const text = readFileSync(join(ROOT, file), 'utf8');
					const anchors = [...text.matchAll(/^#{1,4} (.+)$/gm)].map((match) => slug(match[1]));
					expect([link, anchors.includes(anchor)]).toEqual([link, true]);
				}
			}
		}
	});

	test('every npm command it and docs/DEVELOPMENT.md name is a script of package.json', () => {
		const commands = [...(README + DEVELOPMENT).matchAll(/npm run ([\w:-]+)/g)].map(
			(match) => match[1],
		);
		expect(commands).toEqual(
			expect.arrayContaining([
				'lint',
				'verify',
				'build',
				'e2e',
				'browser-check',
				'bench',
				'sandbox',
				'e2e:queue',
				'release',
				'typecheck',
			]),
		);
		for (const command of new Set(commands))
			expect([command, SCRIPTS.includes(command)]).toEqual([command, true]);
		expect(SCRIPTS).toEqual(expect.arrayContaining(['start', 'test']));
		const described = [...DEVELOPMENT.matchAll(/`npm run (\w+)` is\s+`([^`]+)`/g)];
		expect(described.map((match) => match[1])).toEqual(['build', 'lint', 'release']);
		for (const match of described) expect(PACKAGE.scripts[match[1]]).toBe(match[2]);
		const table = [...DEVELOPMENT.matchAll(/^\| `npm (?:run )?([\w:-]+)` \|/gm)].map(
			(match) => match[1],
		);
		expect(table.sort()).toEqual(
			Object.keys(PACKAGE.scripts)
				.filter((script) => !script.includes('fix') && script !== 'prepublishOnly')
				.sort(),
		);
	});

	test('scripts/ is TypeScript only, as docs/DEVELOPMENT.md says, and every npm script of it runs with ts-node', () => {
		expect(DEVELOPMENT).toMatch(
			/`scripts\/` holds [^.]+, in TypeScript\s+run with `ts-node --transpile-only`/,
		);
		const files = (dir: string): string[] =>
			readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) =>
				entry.isDirectory() ? files(join(dir, entry.name)) : [join(dir, entry.name)],
			);
		expect(
			files('scripts').filter(
				(file) => !file.endsWith('.ts') && file !== join('scripts', 'eslint.config.mjs'),
			),
		).toEqual([]);
		const scriptCommands = Object.values(PACKAGE.scripts).filter((command) =>
			String(command).includes('scripts/'),
		);
		for (const command of scriptCommands)
			expect(command).toMatch(/^ts-node --transpile-only scripts\/[\w-]+\.ts$/);
	});

	test('the compatibility table is the tested targets, and engines.n8n its oldest', () => {
		const table = section('## Compatibility');
		for (const target of TARGETS) {
			const line = table.split('\n').find((row) => row.startsWith(`| ${target.n8n} `)) ?? '';
			expect([target.n8n, line]).toEqual([
				target.n8n,
				expect.stringContaining(`| ${target.node} |`),
			]);
			expect([
				target.n8n,
				line.endsWith(
					target.ci ? '| every CI run |' : '| on request, not in CI (to keep CI short) |',
				),
			]).toEqual([target.n8n, true]);
		}
		const oldest = TARGETS.find((target) => target.role === 'oldest supported')!.n8n;
		expect(PACKAGE.engines.n8n).toBe(`>=${oldest}`);
		expect(README).toContain('The package has no runtime dependencies');
		expect(PACKAGE.dependencies).toBeUndefined();
		expect(table).toContain(`\`engines.n8n\` is \`>=${oldest}\``);
	});

	test('docs/endpoints.md, which the README points to, lists every path with its method and source', () => {
		const table = readFileSync(join(ROOT, 'docs', 'endpoints.md'), 'utf8').split('\n');
		for (const [name, endpoint] of Object.entries(ENDPOINTS)) {
			const row =
				table.find(
					(line) =>
						line.includes(`| \`${endpoint.path}\``) || line.includes(`| \`${endpoint.path}?`),
				) ?? '';
			expect([name, row]).toEqual([
				name,
				expect.stringMatching(new RegExp(`\\| ${endpoint.method} \\|.*\\| \\**${endpoint.source}`)),
			]);
		}
	});

	test('the operations that create money name their limits in the description an AI agent reads', () => {
		const operation = (description: INodeTypeDescription, resource: string, value: string) =>
			description.properties
				.filter(
					(property) =>
						property.name === 'operation' &&
						property.displayOptions?.show?.resource?.includes(resource),
				)
				.flatMap((property) => (property.options ?? []) as unknown as IDataObject[])
				.find((option) => option.value === value)?.description;
		// Create's Dry Run is its Mode "Check Only" (node version 2 on).
		expect(operation(new Disbursement().description, 'payout', 'create')).toMatch(
			/Mode "Check Only" .* Maximum per Payout, Maximum Total per Run, Maximum Total per Day/,
		);
		expect(operation(new PaymentCollection().description, 'transaction', 'generate')).toMatch(
			/Maximum Total per Run, Dry Run/,
		);
	});

	test('the files and folders docs/DEVELOPMENT.md names exist', () => {
		for (const file of [
			'.ci/run',
			'.github/workflows/publish.yml',
			'.npmrc',
			'eslint.config.mjs',
			'tsconfig.dev.json',
			'scripts/n8n/targets.ts',
			'test/structure.test.ts',
			'test/sandbox/agreement.test.ts',
			'test/harness',
		]) {
			expect([file, DEVELOPMENT.includes(`\`${file}`)]).toEqual([file, true]);
			expect([file, existsSync(join(ROOT, file))]).toEqual([file, true]);
		}
		expect(readFileSync(join(ROOT, '.npmrc'), 'utf8')).toMatch(/^ignore-scripts=true$/m);
	});
});

describe("README parameter names are the nodes' own", () => {
	const nodes: Array<[string, INodeTypeDescription]> = [
		['### Payment Gateway Collection', new PaymentCollection().description],
		['### Payment Gateway Disbursement', new Disbursement().description],
		['### Payment Gateway Trigger', new PaymentGatewayTrigger().description],
	];

	test.each(nodes)(
		'%s: every "Label (`name`)" is a parameter, option or value of the node',
		(heading, description) => {
			const names = namesOf(description);
			const quoted = [...section(heading).matchAll(LABELLED_NAME)].map((match) => match[1]);
			expect(quoted.length).toBeGreaterThan(2);
			for (const name of quoted) expect([name, names.has(name)]).toEqual([name, true]);
		},
	);

	test("the node table names the nodes as the editor does; the credential table, the credentials' fields", () => {
		for (const [, description] of nodes)
			expect(README).toContain(`| **${description.displayName}** (\`${description.name}\`) |`);
		const fields = [...section('## Credentials').matchAll(/^\| ([A-Z][\w ,]+) \|/gm)]
			.flatMap((match) => match[1].split(', '))
			.filter((field) => field !== 'Field');
		const credentialFields = new PaymentCollectionApi().properties
			.filter((field) => field.type !== 'hidden')
			.map((field) => field.displayName);
		expect(fields.sort()).toEqual(credentialFields.sort());
		expect(new DisbursementApi().properties.map((field) => field.displayName)).toEqual(
			new PaymentCollectionApi().properties.map((field) => field.displayName),
		);
		for (const credential of [new PaymentCollectionApi(), new DisbursementApi()])
			expect(section('## Credentials')).toContain(`**${credential.displayName}**`);
	});

	test('Map input columns and Check before paying name the payout and Generate parameters', () => {
		const names = new Set([
			...namesOf(new PaymentCollection().description),
			...namesOf(new Disbursement().description),
		]);
		const text = section('## Map input columns automatically') + section('## Check before paying');
		const quoted = [...text.matchAll(LABELLED_NAME)].map((match) => match[1]);
		expect(quoted).toEqual(
			expect.arrayContaining([
				'mappingMode',
				'defineBelow',
				'autoMapInputData',
				'dryRun',
				'maxTotalPerRun',
				'maxAmountPerPayout',
			]),
		);
		for (const name of quoted) expect([name, names.has(name)]).toEqual([name, true]);
	});

	test('the column table lists exactly the columns each node reads', () => {
		const notices = [
			...new PaymentCollection().description.properties,
			...new Disbursement().description.properties,
		].filter((property) => property.type === 'notice' && property.name.startsWith('columnsNotice'));
		const table = section('## Map input columns automatically');
		const rowOf = (operation: string) =>
			table.split('\n').find((line) => line.startsWith(`| ${operation} |`)) ?? '';
		const codes = (text: string) =>
			[...text.matchAll(/`([a-z_]+)`/g)].map((match) => match[1]).sort();
		const expected: Record<string, string> = {
			columnsNotice: 'Generate',
			columnsNoticeEWallet: 'Payout > Create, E-Wallet',
			columnsNoticeBankTransfer: 'Payout > Create, Bank Transfer',
			columnsNoticePayoutReconcile: 'Payout > Reconcile',
			columnsNoticeTransactionReconcile: 'Transaction > Reconcile',
		};
		expect(notices.map((notice) => notice.name).sort()).toEqual(Object.keys(expected).sort());
		for (const notice of notices) {
			// "Required columns: a, b. Optional: c (missing or empty: ...), d. Names match ..."
			const read = notice.displayName.match(
				/^Required columns: ([^.]+)\. Optional: (.+?)\. Names match/,
			)!;
			const listed = (text: string) =>
				text
					.replace(/ \([^)]*\)/g, '')
					.split(', ')
					.map((name) => `\`${name}\``)
					.join(' ');
			const required = codes(listed(read[1]));
			const columns = codes(`${listed(read[1])} ${listed(read[2])}`);
			const row = rowOf(expected[notice.name]);
			expect([notice.name, codes(row)]).toEqual([notice.name, columns]);
			// The README's Required column holds the notice's required ones.
			expect([notice.name, codes(row.split(' | ')[1])]).toEqual([notice.name, required]);
		}
	});
});

interface WorkflowNode {
	name: string;
	type: string;
	typeVersion: number;
	parameters: INodeParameters;
	onError?: string;
}
interface Workflow {
	nodes: WorkflowNode[];
	connections: Record<string, { main: Array<Array<{ node: string }>> }>;
	settings?: IDataObject;
}

describe('README example workflows', () => {
	const files = readdirSync(join(ROOT, 'examples'))
		.filter((file) => file.endsWith('.json'))
		.sort();
	const load = (file: string) =>
		JSON.parse(readFileSync(join(ROOT, 'examples', file), 'utf8')) as Workflow;
	const ofType = (workflow: Workflow, type: string) =>
		workflow.nodes.filter((node) => node.type === `n8n-nodes-payment-gateway.${type}`);
	const next = (workflow: Workflow, from: string, output = 0) =>
		(workflow.connections[from]?.main[output] ?? []).map((to) => to.node);
	const disbursement = new Disbursement().description;
	// n8n names a node's tool variant "...Tool"; its form reads the "@tool" display conditions from that name.
	const disbursementTool = { ...disbursement, name: `${disbursement.name}Tool` };
	/** A Disbursement node's parameters as n8n runs it: the stored ones, every other shown one at its version's default. */
	const resolved = (node: WorkflowNode) =>
		resolvedParameters(
			NodeHelpers,
			node.type.endsWith('Tool') ? disbursementTool : disbursement,
			node.typeVersion,
			node.parameters,
		);

	test('every file in examples/ is in the table, and nothing else is', () => {
		const listed = [
			...section('## Example workflows').matchAll(/^\| \[`([^`]+)`\]\(examples\/\1\)/gm),
		].map((match) => match[1]);
		expect(listed.sort()).toEqual(files);
	});

	test('each description matches what its workflow does', () => {
		const payouts = load('01-payouts-from-spreadsheet.json');
		const [send] = ofType(payouts, 'disbursement');
		expect([send.parameters.operation, send.parameters.channelType, send.onError]).toEqual([
			'create',
			'bankTransfer',
			'continueErrorOutput',
		]);
		expect([next(payouts, send.name, 0), next(payouts, send.name, 1)]).toEqual([
			['Payout accepted'],
			['Rows to fix'],
		]);

		const order = load('02-order-payment-link.json');
		const [link] = ofType(order, 'paymentCollection');
		expect([link.parameters.operation, next(order, 'New order')]).toEqual([
			'generate',
			[link.name],
		]);

		const callbacks = load('03-payment-callbacks-mark-paid.json');
		const [trigger] = ofType(callbacks, 'paymentGatewayTrigger');
		expect(trigger.parameters.interface).toBe('both');
		expect(next(callbacks, next(callbacks, trigger.name)[0])).toEqual(['Mark invoice paid']);

		const report = load('04-daily-wallet-report.json');
		expect(report.settings?.timezone).toBe('Asia/Manila');
		expect(
			JSON.stringify(
				report.nodes.find((node) => node.type === 'n8n-nodes-base.scheduleTrigger')?.parameters,
			),
		).toContain('"triggerAtHour":7');
		expect(ofType(report, 'disbursement').map((node) => node.parameters.operation)).toEqual([
			'getTransactions',
		]);

		const checked = load('05-check-payout-sheet-then-pay.json');
		expect(
			ofType(checked, 'disbursement').map((node) => {
				const parameters = resolved(node);
				return [
					parameters.operation,
					parameters.runMode,
					(parameters.options as IDataObject | undefined)?.maxTotalPerRun,
				];
			}),
		).toEqual([
			['create', 'dryRun', '10000'],
			['create', 'pay', '10000'],
			['waitForFinalStatus', undefined, undefined],
		]);

		const auto = load('06-payouts-columns-mapped-automatically.json');
		const [autoSend] = ofType(auto, 'disbursement');
		expect([
			autoSend.parameters.channelType,
			resolved(autoSend).mappingMode,
			next(auto, autoSend.name, 1),
		]).toEqual(['eWallet', 'autoMapInputData', ['Rows to fix']]);
	});

	test('their Disbursement nodes, tools included, are version 2, the form a new node gets, and n8n keeps every value they store', () => {
		const nodes = files.flatMap((file) =>
			[...ofType(load(file), 'disbursement'), ...ofType(load(file), 'disbursementTool')].map(
				(node) => ({ file, node }),
			),
		);
		expect(nodes.length).toBeGreaterThan(0);
		expect(
			nodes.filter(({ node }) => node.type.endsWith('Tool')).map(({ node }) => node.name),
		).toEqual(['Prepare payout', 'Confirm payout']);
		for (const { file, node } of nodes) {
			expect([file, node.name, node.typeVersion]).toEqual([
				file,
				node.name,
				disbursement.defaultVersion,
			]);
			// A value version 2 does not show (version 1's Options > Dry Run, a bank field it groups
			// under Additional Fields) would be dropped by n8n, or refused when the node runs.
			expect([file, node.name, resolved(node)]).toEqual([
				file,
				node.name,
				expect.objectContaining(node.parameters),
			]);
			const options = (node.parameters.options ?? {}) as IDataObject;
			expect([file, node.name, 'dryRun' in options]).toEqual([file, node.name, false]);
		}
		// Where a sheet's headers are not the fields' names, the fields are mapped by hand.
		const mapping = (file: string, name: string) =>
			resolved(load(file).nodes.find((node) => node.name === name)!).mappingMode;
		expect([
			mapping('01-payouts-from-spreadsheet.json', 'Send payout'),
			mapping('05-check-payout-sheet-then-pay.json', 'Check the sheet'),
			mapping('05-check-payout-sheet-then-pay.json', 'Pay the sheet'),
			mapping('06-payouts-columns-mapped-automatically.json', 'Send payout'),
			// An agent fills the tool's fields through $fromAI.
			mapping('08-ai-agent-pays-after-approval.json', 'Prepare payout'),
		]).toEqual(['defineBelow', 'defineBelow', 'defineBelow', 'autoMapInputData', 'defineBelow']);
	});
});

describe("README is a user's guide", () => {
	const lines = README.split('\n');

	test('at most 300 lines', () => {
		expect(README.endsWith('\n') ? lines.length - 1 : lines.length).toBeLessThanOrEqual(300);
	});

	test('its first screen says what is documented and what is assumed: the payout path and several shapes', () => {
		const firstScreen = lines.slice(0, 20).join('\n');
		expect(firstScreen).toMatch(/\*\*Documented versus assumed\.\*\*/);
		expect(firstScreen).toMatch(/\*\*payout path\*\* \(Payout >\s+Create\)/);
		expect(firstScreen).toMatch(/\*\*shapes\*\*/);
		expect(firstScreen).toContain('](docs/endpoints.md)');
	});

	test("in plain words: none of the maintainers' jargon", () => {
		for (const jargon of [
			/idempotency/i,
			/\bHMAC\b/i,
			/static data/i,
			/fails? closed/i,
			/\bCIDR\b/i,
		])
			expect([jargon, jargon.test(README)]).toEqual([jargon, false]);
	});

	test('the two commands, and installing from a packed tarball first: the package is not on the registry yet', () => {
		expect(section('## Quick start')).toMatch(
			/```bash\nnpm install && npm start +# the demo[^\n]*\nnpm test +# the tests/,
		);
		const install = section('## Install in your n8n');
		expect(install).toMatch(/^\s*The package is \*\*not on the npm registry yet\*\*/);
		// The tarball route, step by step, before any route through the registry.
		const tarball = install.slice(0, install.indexOf('**After publishing**'));
		for (const step of [
			'`npm install`, `npm run build` and `npm pack`',
			`\`${PACKAGE.name}-${PACKAGE.version}.tgz\``,
			`In \`~/.n8n/nodes\``,
			`\`npm install /path/to/${PACKAGE.name}-${PACKAGE.version}.tgz\`, then restart n8n`,
		])
			expect([step, tarball.includes(step)]).toEqual([step, true]);
		expect(tarball).not.toContain('Community Nodes');
		expect(tarball).not.toContain(`\`npm install ${PACKAGE.name}\``);
		// The registry routes, for after publishing, and what publishing needs.
		const registry = install.slice(install.indexOf('**After publishing**'));
		for (const route of [
			'Settings > Community Nodes > Install, enter `n8n-nodes-payment-gateway`',
			`in \`~/.n8n/nodes\` run \`npm install ${PACKAGE.name}\`, then restart n8n`,
			'public GitHub repository',
			'`repository.url` and `homepage`',
			'provenance',
			'`.github/workflows/publish.yml`',
			'`npm run release`',
			'`NPM_TOKEN`',
		])
			expect([route, registry.includes(route)]).toEqual([route, true]);
		// The workflow named is there, publishes with provenance on a version tag, runs the tests first.
		const publish = readFileSync(join(ROOT, '.github', 'workflows', 'publish.yml'), 'utf8');
		expect(publish).toMatch(/on:\s+push:\s+tags:/);
		expect(publish).toContain('id-token: write');
		expect(publish.indexOf("run: 'npm test'")).toBeGreaterThan(0);
		expect(publish.lastIndexOf('npm run release')).toBeGreaterThan(
			publish.indexOf("run: 'npm test'"),
		);
		expect(PACKAGE.scripts.release).toBe('n8n-node release');
	});

	test('every operation of the action nodes has its example, under its node', () => {
		const operations = (description: INodeTypeDescription) => {
			const resources = (description.properties.find((property) => property.name === 'resource')
				?.options ?? []) as Array<{ name: string; value: string }>;
			return description.properties
				.filter((property) => property.name === 'operation')
				.flatMap((property) => {
					const resource = resources.find(
						(option) => option.value === property.displayOptions?.show?.resource?.[0],
					)!;
					return ((property.options ?? []) as Array<{ name: string }>).map(
						(option) => `**${resource.name} > ${option.name}**`,
					);
				});
		};
		const collection = operations(new PaymentCollection().description);
		const disbursement = operations(new Disbursement().description);
		expect([collection.length, disbursement.length]).toEqual([5, 11]);
		for (const operation of collection)
			expect([operation, section('### Payment Gateway Collection').includes(operation)]).toEqual([
				operation,
				true,
			]);
		for (const operation of disbursement)
			expect([operation, section('### Payment Gateway Disbursement').includes(operation)]).toEqual([
				operation,
				true,
			]);
	});

	test('example workflows say how to import them; Money safety is one section; Troubleshooting covers the common errors', () => {
		expect(section('## Example workflows')).toContain('Import from File');
		expect(README.match(/^## Money safety$/gm)).toHaveLength(1);
		const troubleshooting = section('## Troubleshooting');
		for (const cause of [
			'credential was refused',
			'Base URL',
			'HTTP 404',
			'Production URL',
			'Signing Secret',
			'₱20,000',
			'Not sent, because the run stopped',
		]) {
			expect([cause, troubleshooting.includes(cause)]).toEqual([cause, true]);
		}
	});

	test("no invented contact: package.json's author e-mail is a placeholder no one receives, and docs/DEVELOPMENT.md says what to set before publishing", () => {
		// n8n's lint requires an author e-mail; a domain under .invalid (RFC 2606) can never be someone's address.
		expect(PACKAGE.author).toEqual({
			name: expect.any(String),
			email: expect.stringMatching(/^replace-before-publishing@example\.invalid$/),
		});
		expect(DEVELOPMENT).toContain(`\`${String(PACKAGE.author.email)}\``);
		const beforePublishing = DEVELOPMENT.slice(DEVELOPMENT.indexOf('\n## Before publishing\n'));
		for (const field of ['`author`', '`repository.url`', '`homepage`', '`documentationUrl`'])
			expect([field, beforePublishing.includes(field)]).toEqual([field, true]);
	});
});
