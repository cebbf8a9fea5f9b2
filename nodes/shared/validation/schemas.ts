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

/** Whether `value` is one of the three documented statuses, exactly: no case or blanks folded. */
export function isStatus(value: unknown): value is Status {
	return (STATUSES as readonly unknown[]).includes(value);
}

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

/** A bank entry as the sandbox states it (its tests hold it to this); the nodes read banks with `banksIn`. */
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

/** A bank of a bank list: its code, and its name when the entry states one. */
export interface Bank {
	code: string;
	name?: string;
}

const text = (value: unknown) =>
	typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;

/**
 * The banks of a bank list answer; undefined when the answer holds no list at all. Nobody shows an
 * entry's shape (docs/endpoints.md), so only a text `code` is needed: an entry without one cannot
 * be sent and is left out, and a bank without a text `name` is kept unnamed (its code is shown).
 * The one reading of that answer, for the bank dropdown and for the names in Prepare's summaries.
 */
export function banksIn(data: unknown): Bank[] | undefined {
	const list = pickList(data, 'banks');
	if (!list) return undefined;
	return list.flatMap((entry) => {
		if (!entry || typeof entry !== 'object') return [];
		const fields = entry as Record<string, unknown>;
		const code = text(fields.code);
		return code === undefined ? [] : [{ ...fields, code, name: text(fields.name) }];
	});
}
