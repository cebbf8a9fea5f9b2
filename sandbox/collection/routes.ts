/**
 * The collection interface (Payments API). Its route table is written from the interface
 * document; paths it does not show are the public ones (docs/endpoints.md).
 */
import { fail, invalid, ok, type Reply } from '../server/http';
import { lookUp } from '../server/records';
import { route, type RequestContext, type Route } from '../server/router';
import { roundCents } from '../server/money';
import { COLLECTION_CHANNELS, type CollectionChannel } from './channels';
import { channelLogoUrl } from './transactions';
import { validateCalculate, validateGenerate } from './validation';

function createToken(ctx: RequestContext): Reply {
	// Create Token: header X-Server: 1 and credentials in the query string, never in a body.
	if (ctx.headers['x-server'] !== '1')
		return fail(401, 'The X-Server header is missing or invalid.');
	const username = ctx.query.get('username');
	const password = ctx.query.get('password');
	const expected = ctx.config.credentials.collection;
	if (username !== expected.username || password !== expected.password)
		return fail(401, 'Invalid credentials.');
	return ok('Token created successfully.', ctx.state.tokens.issue('collection'));
}

function generate(ctx: RequestContext): Reply {
	const reused = ctx.state.reusedRecord(ctx.state.transactions, ctx.body.reference_no);
	if (reused) return ok('Transaction generated successfully.', reused);
	const result = validateGenerate(ctx.body, (ref) => ctx.state.transactions.has(ref));
	if ('errors' in result) return invalid(result.errors);
	const record = ctx.state.createTransaction(result.value, ctx.baseUrl);
	return ok('Transaction generated successfully.', structuredClone(record.view));
}

/** Listing everything (no reference_no) is discouraged by the service but still answers. */
function listTransactions(ctx: RequestContext): Reply {
	return lookUp(ctx.state.transactions, ctx.query.get('reference_no'));
}

function channelListEntry(channel: CollectionChannel, baseUrl: string) {
	return {
		name: channel.name,
		description: channel.description,
		slug: channel.slug,
		code: channel.code,
		logo: channelLogoUrl(baseUrl, channel),
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
	const subtotal = roundCents(amount);
	return ok('', {
		subtotal_amount: subtotal,
		service_fee: channel.serviceFee,
		total_amount: roundCents(subtotal + channel.serviceFee),
	});
}

export const collectionRoutes: Route[] = [
	// Create Token
	route('POST', '/v1/biller/token/create', { tokenFor: 'collection' }, createToken),
	// Generate Transaction
	route(
		'POST',
		'/v1/biller/transactions/generate',
		{ auth: 'collection', creates: true, usesBody: true },
		generate,
	),
	// Get Transactions (?reference_no=)
	route('GET', '/v1/biller/transactions', { auth: 'collection' }, listTransactions),
	// Get Channels: path from public integrations
	route('GET', '/v1/biller/channels', { auth: 'collection' }, listChannels),
	// Fee preview (?channel_code=&amount=): not in the document, path from public integrations
	route('GET', '/v1/biller/channels/calculate', { auth: 'collection' }, calculate),
];
