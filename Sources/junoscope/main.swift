#if canImport(Glibc)
  import Glibc
#endif
import JunoscopeCLI

exit(Junoscope.run(Array(CommandLine.arguments.dropFirst())))
