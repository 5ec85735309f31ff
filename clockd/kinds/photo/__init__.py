"""The photo contest "Puzzlowe Love": the entry form, the rules, the jury's sheet (no daemon)."""
