// BridgeHostTests: placeholder until the first test lands; replace this file.
