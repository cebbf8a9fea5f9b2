/**
 * Shapes of the service's bodies (docs/endpoints.md, Answers and Callbacks).
 * The sandbox gateway answers with exactly these shapes; the nodes parse with the tolerant
 * variants (`.passthrough()`, optional extras) so an extra or missing optional field never breaks
 * a workflow.
 */
import { z } from 'zod';

export const STATUSES = ['pending', 'completed', 'cancelled'] as const;
export const statusSchema = z.enum(STATUSES);
export type Status = z.infer<typeof statusSchema>;
export const FINAL_STATUSES: readonly Status[] = ['completed', 'cancelled'];

/** The envelope of every response; `errors` only on a 422, where `data` is absent. */
export const envelopeSchema = z
	.object({
		message: z.string().optional(),
		data: z.unknown().optional(),
		errors: z.record(z.array(z.string())).optional(),
	})
	.passthrough();
export type Envelope = z.infer<typeof envelopeSchema>;

/** The token: data of both token responses. */
export const tokenSchema = z
	.object({
		token: z.string().min(1),
		type: z.string().optional(),
		expires_in: z.coerce.number().int().positive().optional(),
	})
	.passthrough();

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

export const bankSchema = z.object({ code: z.string(), name: z.string() }).passthrough();
export type Bank = z.infer<typeof bankSchema>;

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

/**
 * Lists come as `data` being an array (public integrations, for channels) or as `data.<key>` (the
 * interface document). Returns the array, or undefined when neither shape is present.
 */
export function pickList(data: unknown, key: string): unknown[] | undefined {
	if (Array.isArray(data)) return data;
	if (data && typeof data === 'object') {
		const inner = (data as Record<string, unknown>)[key];
		if (Array.isArray(inner)) return inner;
	}
	return undefined;
}
