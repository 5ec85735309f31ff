"""The S(witcher): players rotating between tables by the hall's clock, seat by seat."""
