/**
 * The disbursement interface. Its route table is written from the interface document; the paths
 * it does not show are assumed as docs/endpoints.md says. Bodies and response shapes beyond the
 * document are this fake's own, listed in the README.
 */
import { fail, invalid, ok, type Reply } from '../server/http';
import { roundCents } from '../server/money';
import { lookUp } from '../server/records';
import { route, type RequestContext, type Route } from '../server/router';
import { isPresent, type FieldErrors } from '../server/validation';
import {
	AUTHORIZATIONS,
	BANKS,
	LEDGER_FIXTURE,
	PAYOUT_CHANNELS,
	WALLETS,
	findPayoutChannel,
	type LedgerEntry,
} from './fixtures';
import { answeredPayout } from './payouts';
import { validatePayout, validateStatusFilter } from './validation';

function createToken(ctx: RequestContext): Reply {
	const errors: FieldErrors = {};
	if (!isPresent(ctx.body.username)) errors.username = ['The username field is required.'];
	if (!isPresent(ctx.body.password)) errors.password = ['The password field is required.'];
	if (Object.keys(errors).length > 0) return invalid(errors);
	const expected = ctx.config.credentials.disbursement;
	if (ctx.body.username !== expected.username || ctx.body.password !== expected.password) {
		return fail(401, 'Invalid credentials.');
	}
	return ok('Access token generated successfully.', ctx.state.tokens.issue('disbursement'));
}

/** A payout as this answer states it: in full, or only what the document shows (SandboxOptions). */
const answered = (ctx: RequestContext) => (view: Record<string, unknown>) =>
	answeredPayout(view, ctx.state.payoutAnswers);

function processPayout(ctx: RequestContext): Reply {
	const reused = ctx.state.reusedRecord(ctx.state.payouts, ctx.body.reference_no);
	if (reused) return ok('Disbursement request accepted.', answered(ctx)(reused));
	const result = validatePayout(ctx.body, (ref) => ctx.state.payouts.has(ref));
	if ('errors' in result) return invalid(result.errors);
	const record = ctx.state.createPayout(result.value);
	return ok('Disbursement request accepted.', answered(ctx)(structuredClone(record.view)));
}

function listPayouts(ctx: RequestContext): Reply {
	return lookUp(ctx.state.payouts, ctx.query.get('reference_no'), answered(ctx));
}

function repost(ctx: RequestContext): Reply {
	if (ctx.config.environment === 'production') {
		return fail(403, 'Repost Transaction is available in the sandbox environment only.');
	}
	const ref = ctx.body.reference_no;
	if (!isPresent(ref)) return invalid({ reference_no: ['The reference no field is required.'] });
	if (typeof ref !== 'string')
		return invalid({ reference_no: ['The reference no must be a string.'] });
	const record = ctx.state.payouts.get(ref);
	if (!record) return fail(404, 'Transaction not found.');
	const wait = ctx.state.reposts.take(ref);
	if (wait > 0) {
		return {
			...fail(429, `Too many repost requests. Try again in ${wait} seconds.`),
			headers: { 'retry-after': String(wait) },
		};
	}
	// Re-sends the callback of the current status (pending included); the answer does not wait for it.
	void ctx.state.outcomes.sendCallback(record);
	return ok('Callback reposted.', { reference_no: ref, status: record.view.status });
}

function getAuthorization(ctx: RequestContext): Reply {
	const found = AUTHORIZATIONS[ctx.params.code];
	if (!found) return fail(404, 'Authorization code not found.');
	return ok('Authorization retrieved successfully.', { ...found });
}

/** Completed collections credit the main wallet and completed payouts debit it. */
function walletBalances(ctx: RequestContext) {
	let delta = 0;
	for (const tx of ctx.state.transactions.all())
		if (tx.view.status === 'completed') delta += tx.view.subtotal_amount;
	for (const p of ctx.state.payouts.all())
		if (p.view.status === 'completed') delta -= p.view.total_amount;
	return WALLETS.map((w) => ({
		...w,
		balance: w.id === 'WLT-MAIN' ? roundCents(w.balance + delta) : w.balance,
	}));
}

function listWallets(ctx: RequestContext): Reply {
	const filter = validateStatusFilter(ctx.query.get('status'));
	if ('errors' in filter) return invalid(filter.errors);
	const wallets = walletBalances(ctx).filter((w) => !filter.value || w.status === filter.value);
	return ok('', { wallets });
}

function listWalletTransactions(ctx: RequestContext): Reply {
	const filter = validateStatusFilter(ctx.query.get('status'));
	if ('errors' in filter) return invalid(filter.errors);
	const payoutEntries: LedgerEntry[] = ctx.state.payouts.all().map((p) => ({
		reference_no: p.view.reference_no,
		amount: p.view.total_amount,
		type: 'debit',
		status: p.view.status as LedgerEntry['status'],
		description: `Payout via ${findPayoutChannel(String(p.view.channel))?.name ?? p.view.channel}`,
		date: String(p.view.created_at),
	}));
	const transactions = [...LEDGER_FIXTURE, ...payoutEntries]
		.filter((e) => !filter.value || e.status === filter.value)
		.map((e) => ({ ...e }));
	return ok('', { transactions });
}

function listBanks(): Reply {
	return ok('', { banks: BANKS.map((b) => ({ ...b })) });
}

/** Not in the interface document (assumed path and shape, see the README). */
function listPayoutChannels(): Reply {
	return ok('', {
		channels: PAYOUT_CHANNELS.map(({ code, name, type }) => ({ code, name, type })),
	});
}

export const disbursementRoutes: Route[] = [
	// Create Access Token
	route('POST', '/v1/auth/token', { tokenFor: 'disbursement', usesBody: true }, createToken),
	// Process Disbursement: path not shown, assumed
	route(
		'POST',
		'/v1/api/disbursement/transactions/process',
		{ auth: 'disbursement', creates: true, usesBody: true },
		processPayout,
	),
	// Get Transactions (?reference_no=)
	route('GET', '/v1/api/disbursement/transactions', { auth: 'disbursement' }, listPayouts),
	// Repost Transaction (body reference_no: assumed)
	route(
		'POST',
		'/v1/api/disbursement/transactions/repost',
		{ auth: 'disbursement', usesBody: true },
		repost,
	),
	// Get Authorization
	route(
		'POST',
		'/v1/api/authorization/:code',
		{ auth: 'disbursement', usesBody: true },
		getAuthorization,
	),
	// Get Wallets, Get Wallet Transactions (?status=) and the bank list: paths not shown, assumed
	route('GET', '/v1/api/wallets', { auth: 'disbursement' }, listWallets),
	route('GET', '/v1/api/wallets/transactions', { auth: 'disbursement' }, listWalletTransactions),
	route('GET', '/v1/api/banks', { auth: 'disbursement' }, listBanks),
	// Payout channel list: not in the interface document; path and shape assumed (docs/endpoints.md)
	route('GET', '/v1/api/disbursement/channels', { auth: 'disbursement' }, listPayoutChannels),
];
