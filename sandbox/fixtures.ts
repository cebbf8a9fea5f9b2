/**
 * Fixture data of the fake service. Channel codes and categories are the ones public
 * integrations report (PUBLIC-FACTS.md); fees, payout channels, banks, wallets, the ledger and
 * authorization codes are invented (the interface document does not show them).
 */
import type { Status } from '../nodes/shared/schemas';
import { manilaIso } from './time';

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

const E_WALLET: Category = { name: 'E-Wallet', description: 'Pay with an e-wallet app', slug: 'e-wallet' };
const OTC: Category = { name: 'OTC', description: 'Pay over the counter at a partner outlet', slug: 'otc' };
const CARD: Category = { name: 'Card', description: 'Pay with a credit or debit card', slug: 'card' };

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
		steps: ['Open the payment link below.', 'Log in to your GCash account.', 'Review the amount and confirm the payment.'],
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
		steps: ['Open the payment link below.', 'Scan the QR code with the Maya app.', 'Confirm the payment in the app.'],
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
		steps: ['Open the payment link below.', 'Enter your card details.', 'Complete the 3-D Secure check.'],
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
		steps: ['Open the payment link below and note the reference number.', 'Go to any Bayad Center outlet.', 'Pay the total amount in cash.'],
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
		steps: ['Open the payment link below and note the reference number.', 'Find a Pay&Go kiosk.', 'Pay the total amount in cash.'],
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
		steps: ['Open the payment link below and note the reference number.', 'Go to any Palawan branch.', 'Pay the total amount in cash.'],
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

/** Payout channels (assumed): two bank-transfer rails and two e-wallets. */
export type PayoutChannelType = 'bankTransfer' | 'eWallet';
export interface PayoutChannel {
	code: string;
	name: string;
	type: PayoutChannelType;
	fee: number;
}

export const PAYOUT_CHANNELS: readonly PayoutChannel[] = [
	{ code: 'INSTAPAY', name: 'InstaPay', type: 'bankTransfer', fee: 15 },
	{ code: 'PESONET', name: 'PESONet', type: 'bankTransfer', fee: 10 },
	{ code: 'GCASH', name: 'GCash', type: 'eWallet', fee: 10 },
	{ code: 'PAYMAYA', name: 'Maya', type: 'eWallet', fee: 10 },
];

export function findPayoutChannel(code: string): PayoutChannel | undefined {
	return PAYOUT_CHANNELS.find((c) => c.code === code);
}

export const RECEIVER_TYPES = ['INDIVIDUAL', 'CORPORATE'] as const;
export const GENDERS = ['MALE', 'FEMALE'] as const;

/** Philippine banks (short codes invented for the sandbox). */
export const BANKS: ReadonlyArray<{ code: string; name: string }> = [
	{ code: 'BDO', name: 'BDO Unibank, Inc.' },
	{ code: 'BPI', name: 'Bank of the Philippine Islands' },
	{ code: 'MBTC', name: 'Metropolitan Bank and Trust Company (Metrobank)' },
	{ code: 'LBP', name: 'Land Bank of the Philippines' },
	{ code: 'PNB', name: 'Philippine National Bank' },
	{ code: 'UBP', name: 'Union Bank of the Philippines' },
	{ code: 'SECB', name: 'Security Bank Corporation' },
	{ code: 'RCBC', name: 'Rizal Commercial Banking Corporation' },
	{ code: 'CBC', name: 'China Banking Corporation' },
	{ code: 'EWB', name: 'EastWest Banking Corporation' },
	{ code: 'DBP', name: 'Development Bank of the Philippines' },
];

/**
 * Wallets. Their status uses the service's three values (section 3 says the wallet filters do);
 * what a pending or cancelled wallet means is not shown. `balance` of MAIN is reduced by
 * completed payouts at read time.
 */
export interface WalletFixture {
	id: string;
	name: string;
	currency: 'PHP';
	balance: number;
	status: Status;
}

export const WALLETS: readonly WalletFixture[] = [
	{ id: 'WLT-MAIN', name: 'Main Wallet', currency: 'PHP', balance: 1_000_000, status: 'completed' },
	{ id: 'WLT-PAYROLL', name: 'Payroll Wallet', currency: 'PHP', balance: 250_000, status: 'completed' },
	{ id: 'WLT-REFUNDS', name: 'Refunds Wallet', currency: 'PHP', balance: 0, status: 'pending' },
	{ id: 'WLT-OLD', name: 'Closed Promo Wallet', currency: 'PHP', balance: 0, status: 'cancelled' },
];

export interface LedgerEntry {
	reference_no: string;
	amount: number;
	type: 'credit' | 'debit';
	status: Status;
	description: string;
	date: string;
}

/** 30 deterministic ledger entries, one a day from 2026-01-05, statuses mixed. */
export const LEDGER_FIXTURE: readonly LedgerEntry[] = Array.from({ length: 30 }, (_, i) => {
	const statuses: Status[] = ['completed', 'completed', 'pending', 'completed', 'cancelled'];
	const credit = i % 3 !== 2;
	return {
		reference_no: `WT-2026-${String(i + 1).padStart(4, '0')}`,
		amount: Math.round((((i * 7919) % 4500) + 150.25 + i) * 100) / 100,
		type: credit ? 'credit' : 'debit',
		status: statuses[i % statuses.length],
		description: credit ? 'Collection settlement' : 'Payout',
		date: manilaIso(Date.UTC(2026, 0, 5 + i, 1, 0, 0)),
	};
});

/** Authorization codes the fake recognises (shape not shown by the interface: invented). */
export const AUTHORIZATIONS: Readonly<Record<string, Record<string, unknown>>> = {
	'AUTH-1001': {
		code: 'AUTH-1001',
		status: 'approved',
		description: 'Payroll batch approval',
		amount: 125000,
		currency: 'PHP',
		approved_by: 'Finance Approver',
		approved_at: '2026-02-02T09:15:00+08:00',
	},
	'AUTH-1002': {
		code: 'AUTH-1002',
		status: 'approved',
		description: 'Supplier payout approval',
		amount: 48250.5,
		currency: 'PHP',
		approved_by: 'Operations Approver',
		approved_at: '2026-02-03T14:40:00+08:00',
	},
};
