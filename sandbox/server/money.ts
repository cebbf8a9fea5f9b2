/** Amounts are pesos with centavos: every computed amount is rounded to two decimals. */
export function roundCents(amount: number): number {
	return Math.round(amount * 100) / 100;
}
