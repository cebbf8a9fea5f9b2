// The Payment Gateway Trigger in queue mode: callbacks arrive at a webhook process, which queues
// the execution for a worker. Duplicate deliveries are recognised in the process's memory and in
// the workflow's static data (see nodes/PaymentGatewayTrigger/helpers/duplicates.ts); two webhook
// processes receiving the same callback at the same moment is measured, not assumed.
import { assert, assertEqual } from '../n8n/check';
import { freePort } from '../n8n/proc';
import type { Check, QueueContext } from './context';
import {
	executionIds,
	settledCount,
	startRun,
	waitForNew,
	type DeliveredCallback,
} from './executions';
import {
	CALLBACKS,
	PAYOUTS,
	callbackWebhookUrl,
	payoutRows,
	payoutWebhookUrl,
	type PayoutRow,
} from './workflows';

async function post(url: string, body: unknown): Promise<number> {
	const res = await fetch(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
	await res.arrayBuffer();
	return res.status;
}

export async function triggerChecks(ctx: QueueContext, check: Check): Promise<void> {
	const { rest, sandbox, cluster, webhookBase, figures } = ctx;
	const callbackUrl = callbackWebhookUrl(webhookBase);

	/** Creates payouts through the payout workflow, each with `callbackTo` as its callback URL. */
	async function createPayouts(
		prefix: string,
		count: number,
		callbackTo: string,
	): Promise<PayoutRow[]> {
		const rows = payoutRows(prefix, count, callbackTo);
		const known = await executionIds(rest, PAYOUTS.id);
		await startRun(payoutWebhookUrl(webhookBase, PAYOUTS), rows);
		const [execution] = await waitForNew(rest, PAYOUTS.id, known, 1);
		assertEqual(execution.status, 'success', 'payout execution status');
		return rows;
	}

	/** A signed callback the sandbox tried to deliver to a closed port: nobody has seen it yet. */
	async function undeliveredCallback(prefix: string): Promise<DeliveredCallback> {
		const closed = `http://127.0.0.1:${await freePort()}/nobody-listens`;
		const [row] = await createPayouts(prefix, 1, closed);
		await sandbox.settle(row.reference_no, 'completed');
		const found = (await sandbox.callbacks()).find(
			(c) => c.referenceNo === row.reference_no && c.url === closed,
		);
		if (!found) throw new Error(`the sandbox recorded no callback for ${row.reference_no}`);
		return found;
	}

	let delivered: DeliveredCallback | undefined;

	await check(
		'a callback delivered to the webhook process starts one execution, on a worker',
		async () => {
			const [row] = await createPayouts('QUEUE-CB-DELIVERED', 1, callbackUrl);
			const known = await executionIds(rest, CALLBACKS.id);
			await sandbox.settle(row.reference_no, 'completed');
			const [execution] = await waitForNew(rest, CALLBACKS.id, known, 1);
			assertEqual(execution.status, 'success', 'callback execution status');
			assert(
				cluster.executionsByWorker().has(String(execution.id)),
				`execution ${execution.id} did not run on a worker`,
			);
			delivered = (await sandbox.callbacks()).find(
				(c) => c.referenceNo === row.reference_no && c.statusCode === 200,
			);
			assert(delivered, 'the sandbox did not record a delivery answered 200');
		},
	);

	await check('a repeated delivery to the same webhook process starts no execution', async () => {
		if (!delivered) throw new Error('no delivered callback to repeat');
		const known = await executionIds(rest, CALLBACKS.id);
		assertEqual(
			await post(callbackUrl, delivered.body),
			200,
			'HTTP status of the repeated delivery',
		);
		assertEqual(
			(await settledCount(rest, CALLBACKS.id, known)).length,
			0,
			'executions after the repeated delivery',
		);
	});

	const secondPort = await freePort(20000 + Math.floor(Math.random() * 20000));
	const secondUrl = callbackUrl.replace(webhookBase, `http://127.0.0.1:${secondPort}/`);
	let second: Awaited<ReturnType<typeof cluster.startWebhook>> | undefined;
	try {
		await check('a second webhook process starts on the same database', async () => {
			second = await cluster.startWebhook(secondPort, [callbackUrl]);
		});

		await check(
			'one callback on two webhook processes at the same moment: measured, nothing lost',
			async () => {
				assert(second, 'the second webhook process is not running');
				const callback = await undeliveredCallback('QUEUE-CB-TWICE');
				const known = await executionIds(rest, CALLBACKS.id);
				const answers = await Promise.all([
					post(callbackUrl, callback.body),
					post(secondUrl, callback.body),
				]);
				assertEqual(answers, [200, 200], 'HTTP statuses of the two deliveries');
				const started = await settledCount(rest, CALLBACKS.id, known);
				figures.executionsFromSimultaneousDelivery = started.length;
				assert(started.length >= 1, 'the callback started no execution at all');
			},
		);

		await check(
			'one callback on one webhook process, then again on the other: measured, nothing lost',
			async () => {
				assert(second, 'the second webhook process is not running');
				const callback = await undeliveredCallback('QUEUE-CB-AFTER');
				const known = await executionIds(rest, CALLBACKS.id);
				assertEqual(
					await post(callbackUrl, callback.body),
					200,
					'HTTP status on the first webhook process',
				);
				await waitForNew(rest, CALLBACKS.id, known, 1);
				assertEqual(
					await post(secondUrl, callback.body),
					200,
					'HTTP status on the second webhook process',
				);
				const started = await settledCount(rest, CALLBACKS.id, known);
				figures.executionsFromSequentialDelivery = started.length;
				assert(started.length >= 1, 'the callback started no execution at all');
			},
		);
	} finally {
		if (second) await cluster.stopProcess(second);
	}

	await check("the trigger's duplicate record in the database: measured", async () => {
		// Three different callbacks were accepted above (delivered, twice at once, one then the other).
		figures.callbacksAccepted = 3;
		const stored = ctx.postgres.query(
			`select "staticData" from workflow_entity where id = '${CALLBACKS.id}'`,
		);
		const record = (
			JSON.parse(stored || '{}') as Record<string, { acceptedCallbacks?: Record<string, number> }>
		)[`node:${CALLBACKS.node}`];
		figures.callbacksRememberedInDatabase = Object.keys(record?.acceptedCallbacks ?? {}).length;
		// The trigger answers accepted callbacks itself so that n8n saves each one (webhook.ts).
		assertEqual(
			figures.callbacksRememberedInDatabase,
			figures.callbacksAccepted,
			'accepted callbacks in the stored record',
		);
	});
}
