/**
 * The collection channels of the fake merchant. Codes and categories are the ones public
 * integrations report (docs/endpoints.md); fees, steps and the disabled channel are invented.
 */

export interface Category {
	name: string;
	description: string;
	slug: string;
}

export interface CollectionChannel {
	name: string;
	description: string;
	slug: string;
	code: string;
	category: Category;
	/** Integer fee in pesos added on top of the amount (2.2 says service_fee is an integer). */
	serviceFee: number;
	isDisabled: boolean;
	/** Customer fields this channel demands in Generate Transaction (card channels do). */
	requiredCustomerFields: string[];
	/** Steps shown to the payer; the payment link is appended. */
	steps: string[];
}

const E_WALLET: Category = {
	name: 'E-Wallet',
	description: 'Pay with an e-wallet app',
	slug: 'e-wallet',
};
const OTC: Category = {
	name: 'OTC',
	description: 'Pay over the counter at a partner outlet',
	slug: 'otc',
};
const CARD: Category = {
	name: 'Card',
	description: 'Pay with a credit or debit card',
	slug: 'card',
};

export const COLLECTION_CHANNELS: readonly CollectionChannel[] = [
	{
		name: 'GCash',
		description: 'Pay using your GCash wallet.',
		slug: 'gcash',
		code: 'GCASH_TRN',
		category: E_WALLET,
		serviceFee: 15,
		isDisabled: false,
		requiredCustomerFields: [],
		steps: [
			'Open the payment link below.',
			'Log in to your GCash account.',
			'Review the amount and confirm the payment.',
		],
	},
	{
		name: 'Maya QR',
		description: 'Scan the QR code with your Maya app.',
		slug: 'paymaya-qr',
		code: 'PAYMAYA_QR',
		category: E_WALLET,
		serviceFee: 15,
		isDisabled: false,
		requiredCustomerFields: [],
		steps: [
			'Open the payment link below.',
			'Scan the QR code with the Maya app.',
			'Confirm the payment in the app.',
		],
	},
	{
		name: 'Credit / Debit Card',
		description: 'Visa and Mastercard, processed by Maya.',
		slug: 'paymaya-card',
		code: 'PAYMAYA_CARD',
		category: CARD,
		serviceFee: 25,
		isDisabled: false,
		requiredCustomerFields: ['email', 'mobile_number', 'first_name', 'last_name'],
		steps: [
			'Open the payment link below.',
			'Enter your card details.',
			'Complete the 3-D Secure check.',
		],
	},
	{
		name: 'Bayad Center',
		description: 'Pay in cash at any Bayad Center outlet.',
		slug: 'bayad',
		code: 'BAYAD',
		category: OTC,
		serviceFee: 0,
		isDisabled: false,
		requiredCustomerFields: [],
		steps: [
			'Open the payment link below and note the reference number.',
			'Go to any Bayad Center outlet.',
			'Pay the total amount in cash.',
		],
	},
	{
		name: 'Pay&Go',
		description: 'Pay in cash at a Pay&Go kiosk.',
		slug: 'payandgo',
		code: 'PAYANDGO',
		category: OTC,
		serviceFee: 0,
		isDisabled: false,
		requiredCustomerFields: [],
		steps: [
			'Open the payment link below and note the reference number.',
			'Find a Pay&Go kiosk.',
			'Pay the total amount in cash.',
		],
	},
	{
		name: 'Palawan Pay OTC',
		description: 'Pay in cash at any Palawan Express Pera Padala branch.',
		slug: 'palawanpay-otc',
		code: 'PALAWANPAY_OTC',
		category: OTC,
		serviceFee: 0,
		isDisabled: false,
		requiredCustomerFields: [],
		steps: [
			'Open the payment link below and note the reference number.',
			'Go to any Palawan branch.',
			'Pay the total amount in cash.',
		],
	},
	{
		name: 'Coins.ph',
		description: 'Pay using your Coins.ph wallet (currently unavailable).',
		slug: 'coins-ph',
		code: 'COINS_PH',
		category: E_WALLET,
		serviceFee: 15,
		isDisabled: true,
		requiredCustomerFields: [],
		steps: ['Open the payment link below.', 'Log in to Coins.ph and confirm.'],
	},
];

export function findCollectionChannel(code: string): CollectionChannel | undefined {
	return COLLECTION_CHANNELS.find((c) => c.code === code);
}

export const CURRENCY = Object.freeze({ name: 'Philippine Peso', code: 'PHP', symbol: '₱' });
