/**
 * Fixture data of the disbursement interface: payout channels, banks, wallets, the wallet ledger
 * and authorization codes. All invented: the interface document does not show them.
 */
import { manilaIso } from '../server/time';
import type { Status } from '../types';

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
 * Wallets. Their status uses the service's three values (the document says the wallet filters do);
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
	{
		id: 'WLT-PAYROLL',
		name: 'Payroll Wallet',
		currency: 'PHP',
		balance: 250_000,
		status: 'completed',
	},
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
