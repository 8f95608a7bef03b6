import Testing

@testable import DeeplinkNavigation

@Suite("ReadyGate: work held until ready, then run in arrival order")
struct ReadyGateTests {
    /// The gate in a box, so work run from the gate can register more work with it.
    final class Box {
        var gate: ReadyGate
        var ran: [String] = []
        init(open: Bool) { gate = ReadyGate(isOpen: open) }

        func drain() {
            guard gate.beginDraining() else { return }
            while let work = gate.next() { work() }
        }
    }

    @Test func anOpenGateWithNothingWaitingLetsWorkThrough() {
        let gate = ReadyGate(isOpen: true)
        #expect(!gate.mustQueue)
        #expect(gate.waitingCount == 0)
    }

    @Test func aClosedGateHoldsAnyNumberOfCallbacks() {
        let box = Box(open: false)
        for name in ["a", "b", "c"] {
            #expect(box.gate.mustQueue)
            box.gate.enqueue { box.ran.append(name) }
        }
        #expect(box.gate.waitingCount == 3)
        #expect(box.ran.isEmpty)
        box.drain()
        #expect(box.ran == ["a", "b", "c"])
        #expect(box.gate.isOpen && box.gate.waitingCount == 0 && !box.gate.mustQueue)
    }

    @Test func workRegisteredWhileDrainingRunsBehindTheWaitingWork() {
        let box = Box(open: false)
        box.gate.enqueue {
            box.ran.append("a")
            // Arrives while the gate drains: it queues, and a nested drain does not start.
            #expect(box.gate.mustQueue)
            box.gate.enqueue { box.ran.append("c") }
            box.drain()
            #expect(box.ran == ["a"])
        }
        box.gate.enqueue { box.ran.append("b") }
        box.drain()
        #expect(box.ran == ["a", "b", "c"])
    }

    @Test func evenTheLastWaitingWorkCannotJumpAheadOfWhatItRegisters() {
        let box = Box(open: false)
        box.gate.enqueue {
            box.ran.append("a")
            // Nothing else waits, but the gate is still draining: this queues too.
            #expect(box.gate.mustQueue)
            box.gate.enqueue { box.ran.append("b") }
            box.ran.append("a done")
        }
        box.drain()
        #expect(box.ran == ["a", "a done", "b"])
    }

    @Test func closingWhileDrainingLeavesTheRestWaiting() {
        let box = Box(open: false)
        box.gate.enqueue {
            box.ran.append("a")
            box.gate.close()
        }
        box.gate.enqueue { box.ran.append("b") }
        box.drain()
        #expect(box.ran == ["a"])
        #expect(!box.gate.isOpen && box.gate.waitingCount == 1 && box.gate.mustQueue)
        box.drain()
        #expect(box.ran == ["a", "b"])
    }
}
