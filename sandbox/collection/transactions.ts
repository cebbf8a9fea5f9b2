/** A generated transaction (docs/endpoints.md, Answers) as the fake builds and keeps it. */
import { roundCents } from '../server/money';
import { manilaIso } from '../server/time';
import { CURRENCY, type CollectionChannel } from './channels';
import type { GenerateInput } from './validation';

export interface CollectionRecord {
	kind: 'collection';
	/** The 2.2 transaction as the service shows it; status and is_expired change over time. */
	view: Record<string, unknown> & {
		reference_no: string;
		status: string;
		subtotal_amount: number;
		total_amount: number;
	};
	channel: CollectionChannel;
	createdAt: number;
	callbackUrl?: string;
	successUrl?: string;
	failureUrl?: string;
	cancelExpiry?: () => void;
}

export function buildTransaction(
	input: GenerateInput,
	baseUrl: string,
	now: number,
	expiresAt: number,
): CollectionRecord {
	const { channel } = input;
	const fee = channel.serviceFee;
	const payUrl = `${baseUrl}/pay/${encodeURIComponent(input.referenceNo)}`;
	const view = {
		subtotal_amount: roundCents(input.amount),
		service_fee: fee,
		total_amount: roundCents(input.amount + fee),
		reference_no: input.referenceNo,
		provider_reference_no: null,
		other_reference_no: null,
		status: 'pending',
		barcode_url: null,
		qrcode_url: null,
		link_url: null,
		is_web_payment: true,
		web_payment_url: payUrl,
		qrcode: null,
		is_expired: false,
		expires_at: manilaIso(expiresAt),
		date: manilaIso(now),
		items: [],
		currency: { ...CURRENCY },
		channel: {
			name: channel.name,
			desciption: channel.description,
			instruction: [
				`## How to pay with ${channel.name}`,
				'',
				...channel.steps.map((step, i) => `${i + 1}. ${step}`),
				'',
				`[Pay ${CURRENCY.symbol}${roundCents(input.amount + fee).toFixed(2)} now](${payUrl})`,
			].join('\n'),
			slug: channel.slug,
			code: channel.code,
			logo: channelLogoUrl(baseUrl, channel),
			category: { ...channel.category },
		},
	};
	return {
		kind: 'collection',
		view,
		channel,
		createdAt: now,
		callbackUrl: input.callbackUrl,
		successUrl: input.successUrl,
		failureUrl: input.failureUrl,
	};
}

/** Served by the payment page's logo route, so every `logo` in a response resolves. */
export function channelLogoUrl(baseUrl: string, channel: CollectionChannel): string {
	return `${baseUrl}/static/logos/${channel.slug}.svg`;
}
