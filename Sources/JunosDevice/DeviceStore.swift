public import JunosConfig
public import JunosHistory
internal import Synchronization

/// A live device as a ``RollbackStore``: its commit list read once when the store is made, each
/// rollback read the first time it is asked for and kept in memory. The device is used by one
/// thread at a time (a lock around every request: one SSH session carries one command at a
/// time), so ``rollback(_:)`` is safe from any thread.
public final class DeviceStore: RollbackStore, @unchecked Sendable {
  // @unchecked: `device` is touched only inside `lock`, and the rest is immutable or a Mutex.
  private let device: any DeviceSource
  private let lock = Mutex(())
  private let cache = Mutex<[Int: SourceFile]>([:])
  /// The commit list as first read.
  public let firstList: [UInt8]
  public let name: String
  /// The entry numbers of the commit list: the rollbacks the device has.
  public let rollbackNumbers: Set<Int>
  public var captures: [CompareCapture] { [] }
  public var listingIsWithRollbacks: Bool { true }

  /// Reads the device's commit list.
  public init(_ device: any DeviceSource, name: String) throws(StoreError) {
    self.device = device
    self.name = name
    do { firstList = try device.commitListXML() } catch { throw StoreError("\(name): \(error)", kind: .device) }
    rollbackNumbers = Set(
      CommitHistory.read(SourceFile(path: "commits", bytes: firstList)).commits.compactMap(\.index).filter { (0...49).contains($0) })
  }

  public func listing() throws(StoreError) -> SourceFile? { SourceFile(path: "\(name): show system commit", bytes: firstList) }

  public func rollback(_ n: Int) throws(StoreError) -> SourceFile? {
    guard rollbackNumbers.contains(n) else { return nil }
    if let known = cache.withLock({ $0[n] }) { return known }
    let result: Result<[UInt8], DeviceError> = lock.withLock { _ in
      do throws(DeviceError) { return .success(try device.rollback(n)) } catch { return .failure(error) }
    }
    switch result {
    case .success(let bytes):
      let file = SourceFile(path: "\(name): rollback \(n)", bytes: bytes)
      cache.withLock { $0[n] = file }
      return file
    case .failure(let e): throw StoreError("\(name): \(e)", kind: .device)
    }
  }

  public func capture(_ c: CompareCapture) throws(StoreError) -> SourceFile {
    throw StoreError("\(name): no compare captures", kind: .device)
  }

  /// Reads the commit list again: a commit that landed meanwhile moved the rollback numbers.
  public func checkStable() throws(StoreError) {
    let last: Result<[UInt8], DeviceError> = lock.withLock { _ in
      do throws(DeviceError) { return .success(try device.commitListXML()) } catch { return .failure(error) }
    }
    switch last {
    case .success(let bytes):
      guard CaptureBundle.sameCommitLists(firstList, bytes) else {
        throw StoreError("\(name): a commit landed while junoscope was reading; the rollback numbers moved. Run again.", kind: .device)
      }
    case .failure(let e): throw StoreError("\(name): \(e)", kind: .device)
    }
  }
}
