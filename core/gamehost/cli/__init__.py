"""The gamehost command line."""
