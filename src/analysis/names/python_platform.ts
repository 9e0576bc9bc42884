/**
 * Standard-library names that exist on some platforms only (the member lists in
 * `python.json` come from one Linux build): never reported as missing.
 *
 * @module
 */

/** Module → names defined only on Windows, macOS or BSD builds. */
export const PYTHON_PLATFORM_NAMES: Readonly<Record<string, readonly string[]>> = {
  os: [
    "chflags",
    "lchflags",
    "lchmod",
    "startfile",
    "add_dll_directory",
    "get_handle_inheritable",
    "set_handle_inheritable",
    "plock",
    "O_BINARY",
    "O_NOINHERIT",
    "O_SHORT_LIVED",
    "O_TEMPORARY",
    "O_RANDOM",
    "O_SEQUENTIAL",
    "O_TEXT",
    "O_EXLOCK",
    "O_SHLOCK",
    "O_EVTONLY",
    "O_SYMLINK",
    "O_NOFOLLOW_ANY",
    "P_DETACH",
    "P_OVERLAY",
    "memfd_create",
  ],
  sys: ["getwindowsversion", "winver", "dllhandle", "setdlopenflags", "getdlopenflags"],
  signal: ["CTRL_C_EVENT", "CTRL_BREAK_EVENT", "SIGBREAK", "SIGINFO", "SIGEMT"],
  socket: ["AF_SYSTEM", "SIO_RCVALL", "SIO_KEEPALIVE_VALS", "SIO_LOOPBACK_FAST_PATH", "ioctl"],
  time: ["tzset"],
  select: ["kqueue", "kevent", "devpoll", "KQ_FILTER_READ", "KQ_FILTER_WRITE"],
  subprocess: [
    "STARTUPINFO",
    "STARTF_USESHOWWINDOW",
    "STARTF_USESTDHANDLES",
    "SW_HIDE",
    "CREATE_NEW_CONSOLE",
    "CREATE_NEW_PROCESS_GROUP",
    "CREATE_NO_WINDOW",
    "DETACHED_PROCESS",
  ],
  "os.path": ["splitunc"],
  ctypes: [
    "windll",
    "oledll",
    "WinDLL",
    "OleDLL",
    "WinError",
    "FormatError",
    "GetLastError",
    "HRESULT",
    "WINFUNCTYPE",
    "get_last_error",
    "set_last_error",
  ],
  mimetypes: ["_winreg"],
  asyncio: [
    "ProactorEventLoop",
    "IocpProactor",
    "WindowsSelectorEventLoopPolicy",
    "WindowsProactorEventLoopPolicy",
  ],
};
