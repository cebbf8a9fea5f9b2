/** Channel > Get Many, and the channel dropdown of Generate (loadOptions), against both list shapes. */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { SANDBOX_CREDENTIALS } from '../../sandbox';
import { loadOptions } from '../harness';
import {
	addWrongCredential,
	COLLECTION,
	gatewayPerSuite,
	NODE_TYPE,
	run,
	setUp,
	type Setup,
} from '../harness/collectionRuns';

/** The channel list exactly as the service answers it (`data`, whichever shape). */
async function serviceChannels(s: Setup): Promise<IDataObject[]> {
	const { username, password } = SANDBOX_CREDENTIALS.collection;
	const query = new URLSearchParams({ username, password });
	const tokenResponse = await fetch(`${s.gw.url}/v1/biller/token/create?${query}`, {
		method: 'POST',
		headers: { 'X-Server': '1' },
	});
	const token = ((await tokenResponse.json()) as { data: { token: string } }).data.token;
	const response = await fetch(`${s.gw.url}/v1/biller/channels`, {
		headers: { Authorization: `Bearer ${token}` },
	});
	const { data } = (await response.json()) as { data: IDataObject[] | { channels: IDataObject[] } };
	return Array.isArray(data) ? data : data.channels;
}

const getMany = (extra: INodeParameters = {}): INodeParameters => ({
	resource: 'channel',
	operation: 'getMany',
	...extra,
});
const codes = (items: Array<{ json: IDataObject }>) => items.map((item) => item.json.code);

describe.each(['array', 'object'] as const)('channel list with data as %s', (shape) => {
	const s = gatewayPerSuite(async () => await setUp({ channelListShape: shape }));
	let channels: IDataObject[];
	beforeAll(async () => {
		channels = await serviceChannels(s);
		expect(channels).toHaveLength(7);
	});

	it('Get Many with Return All outputs every channel as the service sends it, one item each', async () => {
		const result = await run(s, getMany({ returnAll: true }));
		expect(result.outputs).toEqual([channels.map((json) => ({ json, pairedItem: { item: 0 } }))]);
	});

	it('Get Many with a Limit outputs the first channels only', async () => {
		const result = await run(s, getMany({ returnAll: false, limit: 2 }));
		expect(result.outputs).toEqual([
			channels.slice(0, 2).map((json) => ({ json, pairedItem: { item: 0 } })),
		]);
	});

	it('Enabled Only leaves out disabled channels', async () => {
		const result = await run(s, getMany({ returnAll: true, filters: { enabledOnly: true } }));
		expect(codes(result.outputs[0])).toEqual([
			'GCASH_TRN',
			'PAYMAYA_QR',
			'PAYMAYA_CARD',
			'BAYAD',
			'PAYANDGO',
			'PALAWANPAY_OTC',
		]);
	});

	it('Category matches the slug or the name, case-insensitively', async () => {
		const bySlug = await run(s, getMany({ returnAll: true, filters: { category: 'otc' } }));
		expect(codes(bySlug.outputs[0])).toEqual(['BAYAD', 'PAYANDGO', 'PALAWANPAY_OTC']);
		const byName = await run(
			s,
			getMany({ returnAll: true, filters: { category: 'E-WALLET', enabledOnly: true } }),
		);
		expect(codes(byName.outputs[0])).toEqual(['GCASH_TRN', 'PAYMAYA_QR']);
	});

	it('runs once per input item, each result paired with its item', async () => {
		const result = await run(s, getMany({ limit: 1 }), { items: [{}, {}] });
		expect(result.outputs).toEqual([
			[
				{ json: channels[0], pairedItem: { item: 0 } },
				{ json: channels[0], pairedItem: { item: 1 } },
			],
		]);
	});

	it('the channel dropdown lists the usable channels by name, then the disabled one, marked', async () => {
		const options = await loadOptions({ type: NODE_TYPE, method: 'getChannels', store: s.store });
		expect(options).toEqual([
			{ name: 'Bayad Center', value: 'BAYAD', description: 'BAYAD · OTC' },
			{ name: 'Credit / Debit Card', value: 'PAYMAYA_CARD', description: 'PAYMAYA_CARD · Card' },
			{ name: 'GCash', value: 'GCASH_TRN', description: 'GCASH_TRN · E-Wallet' },
			{ name: 'Maya QR', value: 'PAYMAYA_QR', description: 'PAYMAYA_QR · E-Wallet' },
			{ name: 'Palawan Pay OTC', value: 'PALAWANPAY_OTC', description: 'PALAWANPAY_OTC · OTC' },
			{ name: 'Pay&Go', value: 'PAYANDGO', description: 'PAYANDGO · OTC' },
			{
				name: 'Coins.ph (Disabled)',
				value: 'COINS_PH',
				description: 'COINS_PH · E-Wallet · currently disabled by the service',
			},
		]);
	});

	it('the category dropdown lists the categories present, by slug', async () => {
		const options = await loadOptions({
			type: NODE_TYPE,
			method: 'getChannelCategories',
			store: s.store,
		});
		expect(options).toEqual([
			{ name: 'Card', value: 'card' },
			{ name: 'E-Wallet', value: 'e-wallet' },
			{ name: 'OTC', value: 'otc' },
		]);
	});
});

describe('with a wrong credential', () => {
	const s = gatewayPerSuite(setUp);
	let wrong: string;
	const refused =
		'The Payment Collection credential was refused: check Username and Password (the service said: "Invalid credentials.")';
	beforeAll(() => {
		wrong = addWrongCredential(s);
	});

	it('the channel dropdown fails with a message that says what to fix', async () => {
		await expect(
			loadOptions({
				type: NODE_TYPE,
				method: 'getChannels',
				store: s.store,
				credentials: { [COLLECTION]: { id: wrong, name: s.store.get(COLLECTION, wrong).name } },
			}),
		).rejects.toThrow(refused);
		expect(s.gw.stats().requestsByPath['GET /v1/biller/channels']).toBeUndefined();
	});

	it('Get Many fails with the same message, and Generate sends nothing and looks nothing up', async () => {
		const list = await run(s, getMany({ returnAll: true }), { credentialId: wrong });
		expect(list.error?.message).toBe(`${refused} (row 1)`);
		const generate = await run(
			s,
			{
				resource: 'transaction',
				operation: 'generate',
				channelCode: 'GCASH_TRN',
				amount: 10,
				referenceNo: 'WRONG-1',
			},
			{ credentialId: wrong },
		);
		expect(generate.error?.message).toBe(`${refused} (row 1)`);
		const stats = s.gw.stats();
		expect(stats.requestsByPath).toEqual({
			'POST /v1/biller/token/create': stats.tokenRequests.collection,
		});
	});
});
