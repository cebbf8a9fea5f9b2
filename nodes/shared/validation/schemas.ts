/**
 * The shapes of the service's bodies the nodes read (docs/endpoints.md, Answers), parsed
 * tolerantly (`.passthrough()`, optional extras) so an extra or missing optional field never
 * breaks a workflow. The stricter shapes the sandbox is held to live with its tests
 * (test/harness/sandboxSchemas.ts).
 */
import { z } from 'zod';

export const STATUSES = ['pending', 'completed', 'cancelled'] as const;
export const statusSchema = z.enum(STATUSES);
export type Status = z.infer<typeof statusSchema>;

/** The envelope of every response; `errors` only on a 422, where `data` is absent. */
export const envelopeSchema = z
	.object({
		message: z.string().optional(),
		data: z.unknown().optional(),
		errors: z.record(z.array(z.string())).optional(),
	})
	.passthrough();

/** The token: data of both token responses. */
export const tokenSchema = z
	.object({
		token: z.string().min(1),
		type: z.string().optional(),
		expires_in: z.coerce.number().int().positive().optional(),
	})
	.passthrough();

export const bankSchema = z.object({ code: z.string(), name: z.string() }).passthrough();

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

export type Bank = z.infer<typeof bankSchema>;

/**
 * The banks of a bank list answer, entries without a string code and name left out; undefined
 * when the answer holds no list at all. The one reading of that answer, for the bank dropdown and
 * for the names in Prepare's summaries.
 */
export function banksIn(data: unknown): Bank[] | undefined {
	const list = pickList(data, 'banks');
	if (!list) return undefined;
	return list.flatMap((entry) => {
		const parsed = bankSchema.safeParse(entry);
		return parsed.success ? [parsed.data] : [];
	});
}
