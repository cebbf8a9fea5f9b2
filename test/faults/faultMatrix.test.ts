/**
 * The fault matrix: every kind of failure, for both money-moving operations, on three rows run one
 * at a time. Each row asserts the exact output items, the transactions the service created per
 * reference, the create attempts per reference and every request the node made.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { FaultRule } from '../../sandbox';
import {
	CHECK_THEN_SAME_REFERENCE,
	NO_CLEAR_ANSWER,
	createdItem,
	moneyOperationsPerFile,
	requestCounts,
	type MoneyOperation,
} from '../harness/moneyOperations';

/** Lets a row act between requests (token expiry mid-run); set per row, cleared after. */
let onGatewayLog: ((line: string) => void) | undefined;
const log = (line: string) => onGatewayLog?.(line);

const ops = moneyOperationsPerFile('fault matrix', { log });
afterEach(() => {
	onGatewayLog = undefined;
});

type Outcome =
	| { created: true; recoveredAfter?: string }
	| {
			error: string;
			errorDetails?: string;
			httpCode?: number;
			fieldErrors?: Record<string, string[]>;
	  };

interface Row {
	/** Fault rules on the create path (POST). */
	faults?: Array<Omit<FaultRule, 'path' | 'method'>>;
	/** Runs before the run starts; may set onGatewayLog. */
	arrange?: (op: MoneyOperation) => void;
	/** Extra columns of the middle row. */
	middle?: (op: MoneyOperation) => IDataObject;
	outcomes: (op: MoneyOperation, refs: string[]) => Outcome[];
	attempts: Array<number | undefined>;
	/** The node's Timeout option; default 5 s, so a busy machine never times out by chance. */
	timeoutSeconds?: number;
	/** Requests the run makes: creates, look-ups, token requests. */
	requests: { create: number; lookup?: number; token?: number };
	/** Any other request the run makes for this operation. */
	otherRequests?: (op: MoneyOperation) => Record<string, number> | undefined;
}

const OK: Outcome = { created: true };
const SERVER_ERROR = 'The service said: "Server Error"';
/** Created, after the node recovered from this failure of its first request (a look-up, maybe a resend). */
const recovered = (recoveredAfter: string): Outcome => ({ created: true, recoveredAfter });
const answered = (op: MoneyOperation, status: number) =>
	`The ${op.label} service answered HTTP ${status}. ${SERVER_ERROR}`;
const noAnswer = (op: MoneyOperation, what: string) =>
	`No answer from the ${op.label} service (${what}): check the Base URL and your network, or raise the Timeout option`;

const rows: Record<string, Row> = {
	'5xx before the work (once): looked up, not found, resent with the same reference': {
		faults: [{ mode: 'error-before', status: 503, times: 1 }],
		outcomes: (op) => [recovered(answered(op, 503)), OK, OK],
		attempts: [2, 1, 1],
		requests: { create: 4, lookup: 1 },
	},
	'5xx before the work (every attempt): the outcome is not known, keep the reference': {
		faults: [{ mode: 'error-before', status: 503, times: 3 }],
		outcomes: (op, refs) => [
			{
				error: NO_CLEAR_ANSWER(op.noun, refs[0], `${answered(op, 503)}.`),
				errorDetails: CHECK_THEN_SAME_REFERENCE(op.noun),
			},
			OK,
			OK,
		],
		attempts: [3, 1, 1],
		requests: { create: 5, lookup: 3 },
	},
	'5xx after the work: looked up and returned, never resent': {
		faults: [{ mode: 'error-after', status: 500, times: 1 }],
		outcomes: (op) => [recovered(answered(op, 500)), OK, OK],
		attempts: [1, 1, 1],
		requests: { create: 3, lookup: 1 },
	},
	'connection dropped after the work: looked up and returned, never resent': {
		faults: [{ mode: 'drop-after', times: 1 }],
		outcomes: (op) => [
			recovered(noAnswer(op, 'the connection was closed before an answer arrived')),
			OK,
			OK,
		],
		attempts: [1, 1, 1],
		requests: { create: 3, lookup: 1 },
	},
	'time-out after the work: looked up and returned, never resent': {
		// Only the held answer may time out: a busy machine's first request can take a few hundred ms.
		faults: [{ mode: 'timeout-after', holdMs: 4000, times: 1 }],
		timeoutSeconds: 2,
		outcomes: (op) => [recovered(noAnswer(op, 'no complete answer within the Timeout')), OK, OK],
		attempts: [1, 1, 1],
		requests: { create: 3, lookup: 1 },
	},
	'malformed JSON body after the work: looked up and returned, never resent': {
		faults: [{ mode: 'malformed', times: 1 }],
		outcomes: () => [recovered('The service answered with a body that is not valid JSON'), OK, OK],
		attempts: [1, 1, 1],
		requests: { create: 3, lookup: 1 },
	},
	'token expired mid-run: one new token, the refused create resent once, no look-up': {
		arrange: (op) => {
			let expired = false;
			onGatewayLog = (line) => {
				// After the first row's create is answered, every issued token stops working.
				if (!expired && line.startsWith(`POST ${op.createPath} -> 200`)) {
					expired = true;
					op.setup.gw.expireTokens();
				}
			};
		},
		outcomes: () => [OK, OK, OK],
		attempts: [1, 2, 1],
		requests: { create: 4, token: 1 },
	},
	'401 that persists after a new token: a credential error that stops the run, never looked up or resent again':
		{
			faults: [{ mode: 'error-before', status: 401, times: 2 }],
			outcomes: (op) => {
				const refused = `The ${op.label} credential was refused even after fetching a new token: check its Username, Password and Base URL`;
				const notSent: Outcome = {
					error: `Not sent, because the run stopped: The ${op.label} credential was refused even after fetching a new token: check its Username, Password and Base URL`,
					errorDetails:
						'Nothing was sent for this row. Fix the cause and run the workflow again: rows already done are returned as replays, never paid twice.',
				};
				return [
					{ error: refused, errorDetails: `HTTP 401. ${SERVER_ERROR}`, httpCode: 401 },
					notSent,
					notSent,
				];
			},
			attempts: [2, undefined, undefined],
			requests: { create: 2, token: 1 },
		},
	'422 from the service: every field listed, sent once, never looked up': {
		middle: (op) => op.rejected.extra,
		outcomes: (op) => {
			const [[field, [message]]] = Object.entries(op.rejected.fieldErrors);
			return [
				OK,
				{
					error: `The service rejected the request: ${field}: ${message}`,
					errorDetails: `${field}: ${message}`,
					...op.rejected.explained,
					httpCode: 422,
					fieldErrors: op.rejected.fieldErrors,
				},
				OK,
			];
		},
		attempts: [1, 1, 1],
		requests: { create: 3 },
		otherRequests: (op) => op.rejected.explainedWith,
	},
};

const table = (['Generate', 'Payout Create'] as const).flatMap((name) =>
	Object.keys(rows).map((fault) => [name, fault] as const),
);

let counter = 0;

test.each(table)('%s: %s', async (name, fault) => {
	const op = ops[name];
	const row = rows[fault];
	const gw = op.setup.gw;
	const refs = [0, 1, 2].map((i) => `MX-${++counter}-${i}`);
	const items = refs.map((ref, i) => op.row(ref, 100 + i, i === 1 ? row.middle?.(op) : {}));
	for (const rule of row.faults ?? [])
		gw.faults.add({ method: 'POST', path: op.createPath, ...rule });
	row.arrange?.(op);

	// One row at a time, so each fault hits the row it is meant for.
	const options = { concurrency: 1, timeoutSeconds: row.timeoutSeconds ?? 5 };
	const result = await op.run(op.parameters(options), items, 'continueRegularOutput');

	expect(result.error).toBeUndefined();
	const expected: INodeExecutionData[] = row.outcomes(op, refs).map((outcome, i) =>
		'created' in outcome
			? withRecovery(createdItem(op, refs[i], i), outcome.recoveredAfter)
			: {
					json: {
						error: `${outcome.error} (row ${i + 1})`,
						itemIndex: i,
						...withoutError(outcome),
					},
					pairedItem: { item: i },
				},
	);
	expect(result.outputs).toEqual([expected]);

	const stats = gw.stats();
	const created = row.outcomes(op, refs).map((outcome) => ('created' in outcome ? 1 : undefined));
	expect(refs.map((ref) => stats.creationsByReference[ref])).toEqual(created);
	expect(refs.map((ref) => stats.attemptsByReference[ref])).toEqual(row.attempts);
	const { create, lookup, token } = row.requests;
	expect(requestCounts(op)).toEqual({
		[`POST ${op.createPath}`]: create,
		...(lookup ? { [`GET ${op.lookupPath}`]: lookup } : {}),
		...(token ? { [`POST ${op.tokenPath}`]: token } : {}),
	});
	expect(stats.requestsByPath).toEqual({ ...requestCounts(op), ...row.otherRequests?.(op) });
	expect(op.setup.store.stats(op.credentialType).preAuthentications).toBe(token ?? 0);
});

function withRecovery(
	item: INodeExecutionData,
	recoveredAfter: string | undefined,
): INodeExecutionData {
	return recoveredAfter ? { ...item, json: { ...item.json, recoveredAfter } } : item;
}

function withoutError(outcome: Exclude<Outcome, { created: true }>): IDataObject {
	const { error: _error, ...rest } = outcome;
	return rest;
}
