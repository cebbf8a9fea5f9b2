/** The collection interface (Payments API): token, generate, look-up, channels, fee preview. */
import { ENDPOINTS } from '../nodes/shared/endpoints';
import { COLLECTION_CHANNELS } from './fixtures';
import { fail, invalid, ok, type Reply } from './http';
import { route, type RequestContext, type Route } from './router';
import { validateCalculate, validateGenerate } from './validation';

function createToken(ctx: RequestContext): Reply {
	// 4.1: header X-Server: 1 and credentials in the query string, never in a body.
	if (ctx.headers['x-server'] !== '1') return fail(401, 'The X-Server header is missing or invalid.');
	const username = ctx.query.get('username');
	const password = ctx.query.get('password');
	const expected = ctx.config.credentials.collection;
	if (username !== expected.username || password !== expected.password) return fail(401, 'Invalid credentials.');
	return ok('Token created successfully.', ctx.state.issueToken('collection'));
}

function generate(ctx: RequestContext): Reply {
	const result = validateGenerate(ctx.body, (ref) => ctx.state.transactions.has(ref));
	if ('errors' in result) return invalid(result.errors);
	const record = ctx.state.createTransaction(result.value, ctx.baseUrl);
	return ok('Transaction generated successfully.', structuredClone(record.view));
}

function listTransactions(ctx: RequestContext): Reply {
	const ref = ctx.query.get('reference_no');
	let transactions: unknown[];
	if (ref !== null) {
		const view = ctx.state.transactionView(ref);
		transactions = view ? [view] : [];
	} else {
		// Listing everything is discouraged by the service but still answers.
		transactions = [...ctx.state.transactions.keys()].map((k) => ctx.state.transactionView(k));
	}
	return ok('', { transactions });
}

export function channelListEntry(channel: (typeof COLLECTION_CHANNELS)[number], baseUrl: string) {
	return {
		name: channel.name,
		description: channel.description,
		slug: channel.slug,
		code: channel.code,
		logo: `${baseUrl}/static/logos/${channel.slug}.svg`,
		is_web_payment: true,
		is_disabled: channel.isDisabled,
		currencies: ['PHP'],
		category: { ...channel.category },
	};
}

function listChannels(ctx: RequestContext): Reply {
	const channels = COLLECTION_CHANNELS.map((c) => channelListEntry(c, ctx.baseUrl));
	return ok('', ctx.config.channelListShape === 'object' ? { channels } : channels);
}

function calculate(ctx: RequestContext): Reply {
	const result = validateCalculate(ctx.query);
	if ('errors' in result) return invalid(result.errors);
	const { channel, amount } = result.value;
	const subtotal = Math.round(amount * 100) / 100;
	return ok('', {
		subtotal_amount: subtotal,
		service_fee: channel.serviceFee,
		total_amount: Math.round((subtotal + channel.serviceFee) * 100) / 100,
	});
}

export const collectionRoutes: Route[] = [
	route('POST', ENDPOINTS.collectionToken.path, { tokenFor: 'collection' }, createToken),
	route('POST', ENDPOINTS.generateTransaction.path, { auth: 'collection', creates: true, usesBody: true }, generate),
	route('GET', ENDPOINTS.getCollectionTransactions.path, { auth: 'collection' }, listTransactions),
	route('GET', ENDPOINTS.getChannels.path, { auth: 'collection' }, listChannels),
	route('GET', ENDPOINTS.calculateFee.path, { auth: 'collection' }, calculate),
];
