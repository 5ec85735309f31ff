"""The widgets both screens are built from."""
