/** Where an item is, counted as a spreadsheet user counts rows: item index 9 is "row 10". */
export function atRow(itemIndex: number): string {
	return `(row ${itemIndex + 1})`;
}
