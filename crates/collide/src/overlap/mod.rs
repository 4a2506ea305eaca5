//! Static tests: does A touch B now? (Gomez 1999, listings 3, 5, 6, 7 and box–plane.)
