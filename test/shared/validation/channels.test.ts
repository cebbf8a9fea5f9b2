/** Which payout channels are bank transfers and which e-wallets, however the service spells it. */
import { channelTypeOf, channelsOfType } from '../../../nodes/shared/validation/channels';

describe('channelTypeOf', () => {
	test.each([
		[{ type: 'bankTransfer' }, 'bankTransfer'],
		[{ type: 'bank_transfer' }, 'bankTransfer'],
		[{ channel_type: 'BANK' }, 'bankTransfer'],
		[{ type: 'e-wallet' }, 'eWallet'],
		[{ type: 'EWALLET' }, 'eWallet'],
		[{ category: { slug: 'e-wallet' } }, 'eWallet'],
		[{ category: { name: 'Bank Transfer' } }, 'bankTransfer'],
	])('%j is %s', (entry, type) => {
		expect(channelTypeOf(entry)).toBe(type);
	});

	test.each([[{}], [{ type: 'otc' }], [{ type: 42 }], [{ category: {} }]])(
		'%j has no known type',
		(entry) => {
			expect(channelTypeOf(entry)).toBeUndefined();
		},
	);
});

test('channelsOfType keeps the channels of that type and those whose type is unknown', () => {
	const channels = [
		{ code: 'INSTAPAY', name: 'InstaPay', channelType: 'bankTransfer' as const },
		{ code: 'GCASH', name: 'GCash', channelType: 'eWallet' as const },
		{ code: 'ODD', name: 'Odd', channelType: undefined },
	];
	expect(channelsOfType(channels, 'eWallet').map((channel) => channel.code)).toEqual([
		'GCASH',
		'ODD',
	]);
	expect(channelsOfType(channels, 'bankTransfer').map((channel) => channel.code)).toEqual([
		'INSTAPAY',
		'ODD',
	]);
});
