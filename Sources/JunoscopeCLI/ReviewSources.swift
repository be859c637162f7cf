import ArgumentKit
import Foundation
import JunosConfig
import JunosDevice
import JunosHistory
import JunosReview

/// The sources of `junoscope review`, as ``ReviewSource``s: each positional folder (a capture
/// bundle when it has a `manifest.json`, else a rollback folder), every Junos file of `--git
/// REPO` (or only `--device D`), and each `--host H`. Nothing is read here but the git
/// repository's file list: each store is opened by the review, so one that cannot be read is a
/// failed device.
enum ReviewSources {
  static func collect(_ inv: Invocation, console: Console) throws(CommandFailure) -> [ReviewSource] {
    let zone = try CommonOptions.deviceZone(inv)
    var out: [ReviewSource] = []
    for path in inv.positionals("source") {
      let device = folderDeviceName(path)
      if FileManager.default.fileExists(atPath: LocalFiles.join(path, "manifest.json")) {
        out.append(
          ReviewSource(device: device, kind: "bundle", location: path, zone: zone) { () throws(StoreError) in
            try HistorySource.bundleStore(path)
          })
      } else {
        out.append(
          ReviewSource(device: device, kind: "rollbacks", location: path, zone: zone) { () throws(StoreError) in
            try RollbackFolder(path: path)
          })
      }
    }
    let wanted = inv.options("device")
    if !wanted.isEmpty && inv.option("git") == nil {
      throw CommandFailure(message: "--device names a device of a git repository: give --git REPO too", status: ExitStatus.usage)
    }
    for repo in inv.options("git") { out += gitSources(repo, devices: wanted, zone: zone) }
    let netconf = inv.flag("netconf")
    for host in inv.options("host") {
      let options = try DeviceOptions.sshOptions(host, inv, console: console)
      out.append(
        ReviewSource(device: DeviceOptions.fileName(host), kind: "host", location: host, zone: zone) { () throws(StoreError) in
          try HistorySource.hostStore(options, host: host, netconf: netconf)
        })
    }
    return out
  }

  /// Every Junos file of a repository (or the named devices'), each a source; a repository that
  /// cannot be read, or a device not in it, is one source that fails when opened.
  static func gitSources(_ repo: String, devices: [String], zone: TimePlacement.Zone) -> [ReviewSource] {
    func failing(_ device: String, _ e: StoreError) -> ReviewSource {
      ReviewSource(device: device, kind: "git", location: repo, zone: zone) { () throws(StoreError) in throw e }
    }
    let files: [BackupFile]
    do throws(StoreError) { files = try GitBackupStore.files(repository: repo) } catch {
      return devices.isEmpty ? [failing(deviceName(repo), error)] : devices.map { failing($0, error) }
    }
    let junos = files.filter { $0.skipped == nil }
    var chosen: [(device: String, path: String)] = []
    var out: [ReviewSource] = []
    if devices.isEmpty {
      chosen = junos.map { ($0.device, $0.path) }
    } else {
      for d in devices {
        do throws(StoreError) {
          chosen.append((d, try GitBackupStore.file(ofDevice: d, among: files, repository: repo)))
        } catch {
          out.append(failing(d, error))
        }
      }
    }
    // Two files of one device name (`a/r1`, `b/r1`) are told apart by their paths.
    let repeated = Set(Dictionary(grouping: chosen, by: \.device).filter { $0.value.count > 1 }.keys)
    for (device, path) in chosen {
      out.append(
        ReviewSource(device: repeated.contains(device) ? path : device, kind: "git", location: repo, zone: zone) {
          () throws(StoreError) in try GitBackupStore(repository: repo, file: path, zone: zone)
        })
    }
    return out
  }

  /// A folder's last name (`bundles/r1/` → `r1`).
  static func deviceName(_ path: String) -> String {
    String(path.split(separator: "/").last ?? Substring(path))
  }

  /// The names a device, or the people who copy its files, give the folder of its rollbacks:
  /// they name no device.
  static let rollbackFolderNames: Set<Substring> = ["config", "db", "var", "rollbacks"]

  /// The device a bundle or rollback folder is of: its last name, passing over names that are only
  /// where rollbacks are kept (`saved/r1/rollbacks` and `copies/r1/var/db/config` → `r1`);
  /// the last name when every name is such a name (`config` → `config`).
  static func folderDeviceName(_ path: String) -> String {
    let names = path.split(separator: "/").filter { $0 != "." }
    return String(names.last { !rollbackFolderNames.contains($0) } ?? names.last ?? Substring(path))
  }
}
