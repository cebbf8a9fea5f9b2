/**
 * The disbursement interface. Paths come from endpoints.ts (some are assumed there); bodies and
 * response shapes beyond the interface document are this fake's own, listed in the README.
 */
import { ENDPOINTS } from '../nodes/shared/endpoints';
import { AUTHORIZATIONS, BANKS, LEDGER_FIXTURE, PAYOUT_CHANNELS, WALLETS, findPayoutChannel, type LedgerEntry } from './fixtures';
import { fail, invalid, ok, type Reply } from './http';
import { route, type RequestContext, type Route } from './router';
import { isPresent, validatePayout, validateStatusFilter, type FieldErrors } from './validation';

function createToken(ctx: RequestContext): Reply {
	const errors: FieldErrors = {};
	if (!isPresent(ctx.body.username)) errors.username = ['The username field is required.'];
	if (!isPresent(ctx.body.password)) errors.password = ['The password field is required.'];
	if (Object.keys(errors).length > 0) return invalid(errors);
	const expected = ctx.config.credentials.disbursement;
	if (ctx.body.username !== expected.username || ctx.body.password !== expected.password) {
		return fail(401, 'Invalid credentials.');
	}
	return ok('Access token generated successfully.', ctx.state.issueToken('disbursement'));
}

function processPayout(ctx: RequestContext): Reply {
	const result = validatePayout(ctx.body, (ref) => ctx.state.payouts.has(ref));
	if ('errors' in result) return invalid(result.errors);
	const record = ctx.state.createPayout(result.value);
	return ok('Disbursement request accepted.', structuredClone(record.view));
}

function listPayouts(ctx: RequestContext): Reply {
	const ref = ctx.query.get('reference_no');
	let transactions: unknown[];
	if (ref !== null) {
		const view = ctx.state.payoutView(ref);
		transactions = view ? [view] : [];
	} else {
		transactions = [...ctx.state.payouts.keys()].map((k) => ctx.state.payoutView(k));
	}
	return ok('', { transactions });
}

function repost(ctx: RequestContext): Reply {
	if (ctx.config.environment === 'production') {
		return fail(403, 'Repost Transaction is available in the sandbox environment only.');
	}
	const ref = ctx.body.reference_no;
	if (!isPresent(ref)) return invalid({ reference_no: ['The reference no field is required.'] });
	if (typeof ref !== 'string') return invalid({ reference_no: ['The reference no must be a string.'] });
	const record = ctx.state.payouts.get(ref);
	if (!record) return fail(404, 'Transaction not found.');
	const wait = ctx.state.takeRepostSlot(ref);
	if (wait > 0) {
		return { ...fail(429, `Too many repost requests. Try again in ${wait} seconds.`), headers: { 'retry-after': String(wait) } };
	}
	// Re-sends the callback of the current status (pending included); the answer does not wait for it.
	void ctx.state.sendCallback(record);
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
	for (const tx of ctx.state.transactions.values()) if (tx.view.status === 'completed') delta += tx.view.subtotal_amount;
	for (const p of ctx.state.payouts.values()) if (p.view.status === 'completed') delta -= p.view.total_amount;
	return WALLETS.map((w) => ({ ...w, balance: w.id === 'WLT-MAIN' ? Math.round((w.balance + delta) * 100) / 100 : w.balance }));
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
	const payoutEntries: LedgerEntry[] = [...ctx.state.payouts.values()].map((p) => ({
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
	return ok('', { channels: PAYOUT_CHANNELS.map(({ code, name, type }) => ({ code, name, type })) });
}

export const disbursementRoutes: Route[] = [
	route('POST', ENDPOINTS.disbursementToken.path, { tokenFor: 'disbursement', usesBody: true }, createToken),
	route('POST', ENDPOINTS.createPayout.path, { auth: 'disbursement', creates: true, usesBody: true }, processPayout),
	route('GET', ENDPOINTS.getPayouts.path, { auth: 'disbursement' }, listPayouts),
	route('POST', ENDPOINTS.repostPayout.path, { auth: 'disbursement', usesBody: true }, repost),
	route('POST', ENDPOINTS.getAuthorization.path, { auth: 'disbursement', usesBody: true }, getAuthorization),
	route('GET', ENDPOINTS.getWallets.path, { auth: 'disbursement' }, listWallets),
	route('GET', ENDPOINTS.getWalletTransactions.path, { auth: 'disbursement' }, listWalletTransactions),
	route('GET', ENDPOINTS.getBanks.path, { auth: 'disbursement' }, listBanks),
	route('GET', '/v1/api/disbursement/channels', { auth: 'disbursement' }, listPayoutChannels),
];
