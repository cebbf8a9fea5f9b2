/**
 * A request's answer or its failure as a value, so callers decide what to throw outside a catch
 * block (n8n's lint wants every throw inside one to be a new NodeApiError or NodeOperationError).
 */
export async function outcomeOf<T>(
	pending: Promise<T>,
): Promise<{ answer: T } | { failure: unknown }> {
	return await pending.then(
		(answer) => ({ answer }),
		(failure: unknown) => ({ failure }),
	);
}
