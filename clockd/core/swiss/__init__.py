"""Swiss chess: the tournament model, TRF, FIDE Dutch pairing and FIDE tie-breaks (pure)."""
