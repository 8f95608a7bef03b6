// BridgeHostTesting: placeholder until MockBridgeHost lands; replace this file.
