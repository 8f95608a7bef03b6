// DeeplinkRouting: placeholder until the module's first file lands; replace this file.
