/**
 * The shapes the sandbox gateway is held to (docs/endpoints.md, Answers and Callbacks): stricter
 * than what the nodes read (nodes/shared/validation/schemas.ts), so the fake cannot drift from
 * the interface document unnoticed.
 */
import { z } from 'zod';

import { statusSchema } from '../../nodes/shared/validation/schemas';

/** A currency. */
export const currencySchema = z
	.object({ name: z.string(), code: z.string(), symbol: z.string() })
	.passthrough();

export const categorySchema = z
	.object({ name: z.string(), description: z.string().nullable().optional(), slug: z.string() })
	.passthrough();

/** The channel object inside a generated transaction. */
export const transactionChannelSchema = z
	.object({
		name: z.string(),
		desciption: z.unknown().optional(),
		instruction: z.string(),
		slug: z.string(),
		code: z.string(),
		logo: z.string(),
		category: categorySchema,
	})
	.passthrough();

/** The generated transaction. Strict about what the document marks required. */
export const generatedTransactionSchema = z
	.object({
		subtotal_amount: z.number(),
		service_fee: z.number(),
		total_amount: z.number(),
		reference_no: z.string(),
		provider_reference_no: z.string().nullable().optional(),
		other_reference_no: z.string().nullable().optional(),
		status: statusSchema,
		barcode_url: z.unknown().optional(),
		qrcode_url: z.unknown().optional(),
		link_url: z.unknown().optional(),
		is_web_payment: z.boolean(),
		web_payment_url: z.string(),
		qrcode: z.unknown().optional(),
		is_expired: z.boolean(),
		expires_at: z.string(),
		date: z.string(),
		items: z.array(z.unknown()),
		currency: currencySchema,
		channel: transactionChannelSchema,
	})
	.passthrough();
export type GeneratedTransaction = z.infer<typeof generatedTransactionSchema>;

/** A channel list entry (public: docs/endpoints.md, Answers). */
export const channelListEntrySchema = z
	.object({
		name: z.string(),
		code: z.string(),
		description: z.string().nullable().optional(),
		slug: z.string().optional(),
		logo: z.string().nullable().optional(),
		is_web_payment: z.boolean().optional(),
		is_disabled: z.boolean().optional(),
		currencies: z.array(z.unknown()).optional(),
		category: categorySchema.partial().passthrough().optional(),
	})
	.passthrough();
export type ChannelListEntry = z.infer<typeof channelListEntrySchema>;

/** A payout as the sandbox returns it; the real shape is not shown, so nodes parse tolerantly. */
export const payoutSchema = z
	.object({
		reference_no: z.string(),
		status: z.string(),
		channel: z.string().optional(),
		amount: z.coerce.number().optional(),
	})
	.passthrough();
export type Payout = z.infer<typeof payoutSchema>;

/** Webhook callback body (docs/endpoints.md, Callbacks): `{data: {...}}`; a flat body is accepted as well. */
export const callbackPayloadSchema = z
	.object({
		reference_no: z.string().min(1),
		amount: z.union([z.number(), z.string()]),
		status: z.string(),
		signature: z.string().optional(),
		total_amount: z.union([z.number(), z.string()]).optional(),
		transaction: z.record(z.unknown()).optional(),
	})
	.passthrough();
export type CallbackPayload = z.infer<typeof callbackPayloadSchema>;
