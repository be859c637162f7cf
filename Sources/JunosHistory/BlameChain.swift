internal import Dispatch
public import JunosConfig
public import JunosDiff
internal import Synchronization

extension Blame {
  /// Blames the newest of a chain of rollbacks, reading them in a pipeline: `workers` threads
  /// read and parse the next configurations and compare each with the one before it (at most
  /// `workers + 1` ahead, so memory stays at a few configurations whatever the chain's length),
  /// while the caller's thread carries the attributions along in order.
  ///
  /// - Parameters:
  ///   - rollbacks: The rollback numbers to read, in any order; the oldest (highest) starts the
  ///     chain and the newest (lowest) is the configuration blamed. Gaps are allowed (see
  ///     ``advance(to:rollback:digests:)``).
  ///   - options: Matching options.
  ///   - workers: Threads reading and comparing configurations (at least 1).
  ///   - load: Reads and parses one rollback; called concurrently from several threads.
  ///   - step: Called on the caller's thread after each step with the rollback reached and the
  ///     comparison that led there (nil for the first), e.g. to check or keep the diffs.
  /// - Returns: The blame of the newest rollback, or nil when `rollbacks` is empty.
  /// - Throws: The first error `load` throws, in chain order; no thread is left running.
  public static func chain<E: Error>(
    rollbacks: [Int], options: DiffOptions = DiffOptions(), workers: Int = 2,
    load: @escaping @Sendable (Int) throws(E) -> ConfigTree, step: (Int, ConfigDiff?) -> Void = { _, _ in }
  ) throws(E) -> Blame? {
    let order = Array(Set(rollbacks)).sorted(by: >)
    guard !order.isEmpty else { return nil }
    let pipeline = LoadPipeline(count: order.count, workers: max(1, min(workers, order.count)), options: options)
    pipeline.start { i throws(E) in try load(order[i]) }
    var blame: Blame? = nil
    defer { pipeline.finish() }
    for i in order.indices {
      let loaded = try pipeline.take(i, as: E.self)
      if var b = blame {
        // A comparison made ahead is of the trees as loaded; after a step that merged repeated
        // statements the chain's tree is the merged copy, so that step is compared again here.
        let d: ConfigDiff
        if let ahead = loaded.diff, !b.lastStepMerged {
          d = ahead
          b.advance(with: ahead, rollback: order[i])
        } else {
          d = b.advance(to: loaded.tree, rollback: order[i], digests: loaded.digests)
        }
        blame = b
        step(order[i], d)
      } else {
        blame = Blame(oldest: loaded.tree, rollback: order[i], options: options, digests: loaded.digests)
        step(order[i], nil)
      }
    }
    return blame
  }
}

/// Bounded read-ahead: worker threads load slot i and compare it with slot i−1 (loaded by
/// whichever worker took it), and the consumer takes the slots in order.
final class LoadPipeline: Sendable {
  struct Loaded: Sendable {
    var tree: ConfigTree
    var digests: [UInt64]
    /// From slot i−1's tree to this one; nil for slot 0.
    var diff: ConfigDiff?
  }
  let count: Int
  let workers: Int
  let options: DiffOptions
  let slots: Mutex<[Int: Result<Loaded, any Error>]> = Mutex([:])
  /// Trees kept for the comparison of the next slot.
  let trees: Mutex<[Int: (ConfigTree, [UInt64])?]> = Mutex([:])
  let ready: [DispatchSemaphore]
  let treeReady: [DispatchSemaphore]
  let budget: DispatchSemaphore
  let nextIndex = Atomic<Int>(0)
  let cancelled = Atomic<Bool>(false)
  let done = DispatchGroup()

  init(count: Int, workers: Int, options: DiffOptions) {
    self.count = count
    self.workers = workers
    self.options = options
    self.ready = (0..<count).map { _ in DispatchSemaphore(value: 0) }
    self.treeReady = (0..<count).map { _ in DispatchSemaphore(value: 0) }
    // Created empty and then signalled: libdispatch refuses to dispose of a semaphore whose
    // count is below the value it was created with, which an early stop leaves.
    self.budget = DispatchSemaphore(value: 0)
    for _ in 0..<(workers + 1) { budget.signal() }
  }

  func start<E: Error>(_ load: @escaping @Sendable (Int) throws(E) -> ConfigTree) {
    for _ in 0..<workers {
      done.enter()
      DispatchQueue.global().async { [self] in
        defer { done.leave() }
        while true {
          budget.wait()
          if cancelled.load(ordering: .acquiring) { return }
          let i = nextIndex.wrappingAdd(1, ordering: .relaxed).oldValue
          guard i < count else {
            budget.signal()
            return
          }
          let r: Result<Loaded, any Error>
          do throws(E) {
            let tree = try load(i)
            let digests = tree.subtreeDigests()
            trees.withLock { $0[i] = (tree, digests) }
            treeReady[i].signal()
            var diff: ConfigDiff? = nil
            if i > 0 {
              // Slot i−1 was taken earlier, so it is loaded or being loaded; nil if it failed.
              treeReady[i - 1].wait()
              if let (previous, previousDigests) = trees.withLock({ $0.removeValue(forKey: i - 1) }) ?? nil {
                diff = ConfigDiff(from: previous, to: tree, options: options, oldDigests: previousDigests, newDigests: digests)
              }
            }
            r = .success(Loaded(tree: tree, digests: digests, diff: diff))
          } catch {
            trees.withLock { $0[i] = .some(nil) }
            treeReady[i].signal()
            r = .failure(error)
          }
          slots.withLock { $0[i] = r }
          ready[i].signal()
        }
      }
    }
  }

  func take<E: Error>(_ i: Int, as: E.Type) throws(E) -> Loaded {
    ready[i].wait()
    let r = slots.withLock { $0.removeValue(forKey: i)! }
    budget.signal()
    switch r {
    case .success(let v): return v
    case .failure(let e): throw e as! E
    }
  }

  /// Stops the workers (those waiting for room wake up and leave) and waits for them.
  func finish() {
    cancelled.store(true, ordering: .releasing)
    for _ in 0..<workers { budget.signal() }
    done.wait()
  }
}
