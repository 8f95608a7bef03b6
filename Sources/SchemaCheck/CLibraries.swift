// Which jansson and PCRE2 the checker links is chosen by one of two package traits: SystemC
// (the default: pkg-config) or VendoredC (the vendored Debian sources). Both at once would link
// two copies of each library, and neither would link none; say so at compile time.
#if SystemC && VendoredC
#error("bridgekit: enable the trait SystemC (the default) or VendoredC, not both")
#elseif !SystemC && !VendoredC
#error("bridgekit: enable the trait SystemC (the default) or VendoredC")
#endif
