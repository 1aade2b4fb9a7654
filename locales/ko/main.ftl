# Hark — 한국어. 화면에 보이는 모든 문구는 여기에서 나오며, 키는 영어 카탈로그와 같습니다.

app-name = Hark
language-name = 한국어
app-title = Hark — 에이전트가 보낸 질문
pending-badge = { $count }개 대기 중

connection-live = 연결됨: 새 질문이 바로 나타납니다
connection-reconnecting = 다시 연결하는 중…
connection-offline = 오프라인: 곧 다시 시도합니다
connection-connecting = 연결하는 중…

nav-inbox = 받은 질문
skip-to-content = 본문으로 건너뛰기

home-waiting-heading = 답을 기다리는 질문
home-history-heading = 기록
home-empty-pending = 모두 처리했습니다. 기다리는 질문이 없습니다. 에이전트의 새 질문은 여기에 나타납니다.
home-empty-history = 아직 답한 질문이 없습니다.
home-loading = 질문을 불러오는 중…
home-question-count = 질문 { $count }개

status-pending = 대기 중
status-answered = 답변함
status-declined = 건너뜀
status-timeout = 시간 초과
status-cancelled = 철회됨

question-loading = 질문을 불러오는 중…
question-not-found = 이 질문은 없거나 더 이상 보관되지 않습니다.
question-back = 받은 질문으로 돌아가기
question-abandoned = 에이전트가 이 답변을 더 이상 기다리지 않습니다. 그래도 답할 수 있으며, 에이전트가 다시 물으면 그 답변을 받습니다.
question-via-client = 에이전트 자체 창에서
question-via-push = 푸시 알림 버튼으로
question-via-rule = 저장한 규칙으로
question-via-channel = { $channel }에서
note-orphan = Hark가 다시 시작된 뒤 에이전트가 돌아오지 않았습니다
note-late = 에이전트가 기다리기를 멈췄고, 시간 안에 아무도 답하지 않았습니다
note-chosen-by-timeout = 시간 초과로 선택됨: 제한 시간 안에 답이 없어 추천 선택지를 보냈습니다
question-option-recommended = 추천
question-other-label = 기타 (직접 입력)
question-other-placeholder = 답을 입력하세요…
image-add = 이미지 추가
image-hint = 또는 여기에 이미지를 붙여넣거나 끌어다 놓으세요
image-alt = 이미지 { $n }
image-remove = 이미지 { $n } 삭제
image-too-many = 답변 하나에 이미지는 최대 { $max }장까지 첨부할 수 있습니다.
image-too-large = { $name }의 크기는 { $whole }.{ $tenths }MB이며, 이미지는 최대 { $max }MB까지 첨부할 수 있습니다.
image-wrong-type = { $name }은(는) PNG, JPEG, WebP, GIF 이미지가 아닙니다.
image-unreadable = { $name }을(를) 읽을 수 없습니다.
answer-images = 이미지 { $count }장
question-submit = 답 보내기
question-submitting = 보내는 중…
question-reading-images = 이미지를 읽는 중…
question-submit-failed = 답을 받아들이지 못했습니다. { $reason }
question-closed-answered = 이미 답한 질문입니다.
question-closed-declined = 건너뛴 질문입니다.
question-closed-timeout = 아무도 답하기 전에 시간이 초과되었습니다.
question-closed-cancelled = 에이전트가 이 질문을 철회했습니다.
question-your-answer = 답: { $answer }
question-note = 메모: { $note }

not-found-title = 페이지를 찾을 수 없습니다
not-found-body = 이 주소에는 아무것도 없습니다.
question-skip = 이 질문 건너뛰기…
question-skip-note = 건너뛰는 이유 (선택 사항, 에이전트에게 전달됩니다)
question-skip-confirm = 건너뛰기
question-keys-hint = 단축키: 1–9 선택 · Enter 보내기 · Esc 돌아가기
question-needs-answer = 선택지를 고르거나 답을 입력하세요.
question-deadline = { $minutes }분 뒤 시간 초과
question-deadline-soon = 1분 안에 시간 초과
age-just-now = 방금
age-minutes = { $count }분 전
age-hours = { $count }시간 전
age-days = { $count }일 전
home-unknown-source = 기타 에이전트
tell-summary = 에이전트에게 전하기…
tell-help = 에이전트가 다음에 Hark에서 답을 받을 때 함께 전달됩니다. Claude Code에서는 다음 작업 후에 전달됩니다.
tell-placeholder = 예: 운영 말고 스테이징 데이터베이스를 사용해.
tell-send = 에이전트에게 보내기
tell-waiting = 에이전트 수신 대기 중
tell-delivered = 전달됨
tell-invalid = 4000자 이내로 메시지를 적어 주세요.
history-filter-label = 보기
history-filter-all = 전체
history-search-label = 기록 검색
history-search-placeholder = 질문과 답 검색…
history-no-match = 기록에서 일치하는 항목이 없습니다.
question-show-raw = 원본 JSON 보기
nav-settings = 설정
settings-heading = 설정
settings-timeout = 기본 제한 시간 (초)
settings-timeout-help = 질문이 답을 기다리다가 시간 초과되기까지의 시간입니다. 0이면 답할 때까지 기다립니다. 에이전트가 따로 제한을 정할 수도 있습니다.
settings-timeout-invalid = 제한 시간은 0부터 2592000(30일)까지의 정수(초)여야 합니다.
settings-remind = 알림 간격 (초)
settings-remind-help = 아직 기다리는 질문을 이 간격마다 다시 알립니다. 0이면 다시 알리지 않습니다.
settings-remind-invalid = 알림 간격은 0부터 86400(하루)까지의 정수(초)여야 합니다.
settings-typing-grace = 입력하는 동안 질문을 열어 두기 (제한 시간을 넘긴 초)
settings-typing-grace-help = 답을 입력하는 동안에는 질문의 제한 시간이 기다립니다. 마지막 입력 1분 뒤에 끝나며, 원래 제한 시간보다 최대 이만큼 늦춰집니다. 0이면 입력 중이어도 제한 시간에 끝납니다.
settings-typing-grace-invalid = 0부터 86400(하루)까지의 정수(초)여야 합니다.
settings-notification = 질문이 오면 데스크톱 알림 표시
settings-auto-open = 질문이 왔는데 열린 페이지가 없으면 브라우저 열기
settings-sound = 질문이 오면 짧은 알림음 재생
settings-save = 설정 저장
settings-saved = 저장했습니다. 열려 있는 모든 페이지에 새 설정이 적용됩니다.
settings-save-failed = 설정을 저장하지 못했습니다. 데몬 로그를 확인하세요.
attention-title = ({ $count }) 답을 기다리는 질문이 있습니다
attention-notification-title = { $count ->
    [one] 에이전트가 질문을 보냈습니다
   *[other] 에이전트가 질문 { $count }개를 보냈습니다
}
attention-notification-open = 질문 열기
attention-notification-open-all = 질문 목록 열기
attention-enable-notifications = 알림 켜기
settings-port = 포트
settings-port-help = 데몬이 수신하는 포트입니다. 데몬을 다시 시작하면 적용되며, HARK_PORT와 --port가 우선합니다.
settings-port-invalid = 포트는 1부터 65535까지의 정수여야 합니다.
settings-orphan = 주인 없는 질문 정리 (초)
settings-orphan-help = 다시 시작한 뒤 이 시간 안에 에이전트가 돌아오지 않으면 질문을 철회합니다.
settings-orphan-invalid = 1부터 86400(하루)까지의 정수(초)여야 합니다.
settings-late = 에이전트가 기다리기를 멈춘 뒤에도 질문을 열어 둘 시간 (초)
settings-late-help = 에이전트의 호출이 취소되거나 프로그램이 종료되어도 이 시간 동안은 답할 수 있고, 에이전트는 다시 물을 때 답변을 받습니다. 0이면 바로 철회합니다.
settings-late-invalid = 0부터 86400(하루)까지의 정수(초)여야 합니다.
settings-history-days = 기록 보관 기간 (일)
settings-history-days-help = 이보다 오래된 종료된 질문은 기록에서 삭제됩니다.
settings-history-days-invalid = 기록 보관 기간은 1일부터 3650일까지여야 합니다.
settings-history-max = 최대 보관 개수 (질문)
settings-history-max-help = 종료된 질문을 최신 순으로 이 개수까지만 보관합니다.
settings-history-max-invalid = 기록 개수는 1부터 1000000까지의 정수여야 합니다.

prefs-language = 언어
prefs-theme = 테마
prefs-apply = 적용
theme-system = 시스템 설정
theme-light = 밝게
theme-dark = 어둡게
settings-appearance-heading = 언어와 테마
settings-appearance-help = 브라우저마다 선택이 따로 저장됩니다. 데스크톱 알림에는 마지막으로 고른 언어가 쓰입니다.

error-invalid-answer = 질문에 맞지 않는 답입니다. 선택을 확인하세요.
error-not-found = 이 질문은 더 이상 없습니다.
error-not-pending = 이미 종료된 질문입니다.
error-too-many = 기다리는 질문이 너무 많습니다. 먼저 몇 개에 답하거나 건너뛰세요.
error-too-many-messages = 이 에이전트에게 기다리는 메시지가 이미 너무 많습니다. 에이전트가 다음에 Hark에 올 때 받아 갑니다.
error-unavailable = Hark에 연결할 수 없습니다. 잠시 후 다시 시도하세요.
error-bad-request = Hark가 이 요청을 읽을 수 없습니다. Hark 페이지가 보내는 형식이 아닙니다. 받은 질문으로 돌아가 다시 시도하세요.

# 날짜와 시간: $hour와 $minute는 두 자리입니다.
date-time = { $year }년 { $month }월 { $day }일 { $hour }:{ $minute }

settings-elicitation = 에이전트 자체 창에서 질문을 보여 줄 수 있으면 그곳에서도 묻기 (먼저 온 답이 채택됩니다)
settings-lan = 같은 네트워크의 다른 기기(휴대폰, 태블릿)에서 답할 수 있게 허용 (데몬을 다시 시작하면 적용)
phone-heading = 휴대폰으로 답하기
phone-scan = 휴대폰 카메라로 이 코드를 스캔하세요. 휴대폰이 이 컴퓨터와 같은 네트워크에 있어야 하며, 이미 연결된 상태로 Hark가 열립니다.
phone-secret = 이 링크를 가진 사람은 누구나 에이전트의 질문을 읽고 답할 수 있습니다. 연결된 모든 기기를 끊으려면 “hark token --rotate”를 실행하세요.
phone-no-address = Hark가 네트워크에서 수신 중이지만, 이 컴퓨터에는 휴대폰이 접속할 수 있는 네트워크 주소가 없습니다.
phone-off = 다른 기기에서 답하기가 꺼져 있습니다. Hark는 이 컴퓨터에서만 수신합니다. 켜려면 위의 “다른 기기에서 답할 수 있게 허용”을 선택하고 Hark를 다시 시작하거나, “hark serve --lan”으로 시작하세요.

history-older = 이전 질문 더 보기
history-loading-older = 불러오는 중…

history-export = 전체 기록 내려받기:
history-export-markdown = Markdown 문서
history-export-json = JSON 데이터

# 다른 곳에도 알리기 (설정)
elsewhere-heading = 다른 곳에도 알리기
elsewhere-intro = Hark는 질문을 텔레그램 채팅으로 보내고, ntfy로 휴대폰에 푸시하고, 웹훅(Slack, Discord, Home Assistant 등)으로 보낼 수 있습니다. 채널을 켜지 않으면 아무것도 이 컴퓨터 밖으로 나가지 않습니다.
elsewhere-ntfy = 질문을 ntfy로 휴대폰에 푸시하기
elsewhere-ntfy-server = ntfy 서버
elsewhere-ntfy-topic = 토픽
elsewhere-ntfy-topic-help = ntfy 앱에서 이 토픽을 구독하세요. 토픽을 아는 사람은 누구나 푸시를 읽을 수 있으니 추측하기 어려운 이름을 고르세요.
elsewhere-ntfy-token = 액세스 토큰(선택)
elsewhere-ntfy-token-help = 보호된 토픽이나 직접 운영하는 서버용입니다. secrets.json에 보관되며 다시 표시되지 않습니다. 비워 두면 저장된 토큰을 계속 씁니다.
elsewhere-ntfy-token-set = 액세스 토큰이 저장되어 있습니다.
elsewhere-ntfy-token-forget = 저장된 액세스 토큰 삭제
elsewhere-public-url = 공개 주소
elsewhere-public-url-help = 휴대폰이 어디서든 이 컴퓨터에 닿는 주소입니다(예: Tailscale 이름 https://desk.tail1234.ts.net). 푸시의 링크와 답변 버튼에 쓰입니다. 없으면 LAN 모드 주소를 씁니다.
elsewhere-no-links = 공개 주소도 LAN 모드도 설정되지 않아 푸시에는 본문만 담깁니다. 이 컴퓨터에서 답하세요.
elsewhere-content = 푸시에 질문 내용 표시(끄면 질문이 기다린다는 것만 알립니다)
elsewhere-webhooks = 웹훅
elsewhere-webhooks-help = 한 줄에 주소 하나씩 입력하세요. 질문이 생길 때와 끝날 때마다 각 주소에 고유한 시크릿으로 서명해(X-Hark-Signature 헤더) 보냅니다.
elsewhere-webhook-secret = { $url }의 시크릿:
elsewhere-status = { $target }: { $sent }건 보냄, 실패한 시도 { $failures }건
elsewhere-status-failing = { $target }(으)로 보내지 못하고 있습니다: { $reason }
elsewhere-save = 채널 저장
elsewhere-test-ntfy = 테스트 푸시 보내기
elsewhere-test-webhook = 웹훅에 테스트 보내기
elsewhere-test-sent = 테스트가 전달되었습니다.
elsewhere-test-failed = 테스트가 전달되지 않았습니다: { $reason }
elsewhere-action-failed = 실행하지 못했습니다: { $reason }
settings-channels-invalid = 채널 설정이 올바르지 않습니다. 주소와 토픽(영문자, 숫자, -와 _)을 확인하세요.

# 텔레그램 (설정)
elsewhere-telegram = 텔레그램 봇
elsewhere-telegram-help = 질문을 텔레그램 채팅으로 보내고 그곳에서 한 번 눌러 답합니다. @BotFather(/newbot)로 봇을 만들어 토큰을 여기에 붙여 넣은 뒤, 연결 코드를 봇에게 보내세요.
elsewhere-telegram-enabled = 질문을 텔레그램으로 보내기
elsewhere-telegram-token = 봇 토큰
elsewhere-telegram-token-help = @BotFather가 발급합니다. secrets.json에 보관되며 다시 표시되지 않습니다. 비워 두면 저장된 토큰을 그대로 쓰고 새 연결 코드를 받습니다.
elsewhere-telegram-connect = 토큰 확인 후 연결 코드 받기
elsewhere-telegram-bot = 봇: @{ $bot }
elsewhere-telegram-token-set = 봇 토큰이 저장되어 있습니다.
elsewhere-telegram-code = 채팅을 연결하려면 10분 안에 봇에게 이것을 보내세요:
elsewhere-telegram-open = 코드가 입력된 채팅 열기
elsewhere-telegram-paired = 채팅이 연결되었습니다. 질문은 그 채팅으로 가며, 그 채팅에서만 답할 수 있습니다.
elsewhere-telegram-not-paired = 아직 연결된 채팅이 없습니다.
elsewhere-telegram-unpair = 채팅 연결 해제
elsewhere-telegram-forget = 봇 토큰을 지우고 봇 끄기
elsewhere-test-telegram = 텔레그램으로 테스트 메시지 보내기
elsewhere-telegram-token-shape = 봇 토큰 형식이 아닙니다. @BotFather의 토큰은 123456789:AAE…처럼 생겼습니다(숫자, 콜론, 그다음 영문과 숫자).
elsewhere-telegram-wrong-token = 텔레그램이 이 토큰을 알지 못합니다. @BotFather(/mybots → API Token)에서 다시 복사하세요.
elsewhere-telegram-no-token = 먼저 @BotFather의 봇 토큰을 붙여 넣으세요.
elsewhere-telegram-unreachable = 토큰을 확인하려고 텔레그램에 연결하지 못했습니다: { $reason }
elsewhere-slack = Slack
elsewhere-slack-help = 각 질문을 Slack 다이렉트 메시지로 보내고 탭 한 번으로 답할 수 있습니다. Hark README의 매니페스트로 Slack 앱을 만들고(Socket Mode 켜기: 이 컴퓨터로 들어오는 연결이 필요 없습니다) 워크스페이스에 설치한 뒤, 두 토큰을 여기에 붙여 넣고 연결 코드를 앱에 다이렉트 메시지로 보내세요.
elsewhere-slack-enabled = 질문을 Slack으로 보내기
elsewhere-slack-bot-token = 봇 사용자 OAuth 토큰 (Bot User OAuth Token, xoxb-…)
elsewhere-slack-app-token = 앱 수준 토큰 (xapp-…, connections:write 포함)
elsewhere-slack-token-help = secrets.json에 저장되며 다시 표시되지 않습니다. 둘 다 비워 두면 저장된 토큰을 유지하고 새 연결 코드를 받습니다.
elsewhere-slack-connect = 토큰 확인 후 연결 코드 받기
elsewhere-slack-bot = 앱: @{ $bot } ({ $team })
elsewhere-slack-token-set = 두 토큰이 모두 저장되어 있습니다.
elsewhere-slack-connected = Slack에 연결되었습니다.
elsewhere-slack-not-connected = 지금은 Slack에 연결되어 있지 않습니다. Hark가 계속 시도합니다.
elsewhere-slack-code = 연결하려면 10분 안에 Slack 다이렉트 메시지로 앱에 이것을 보내세요:
elsewhere-slack-paired = 연결된 사람이 있습니다: 질문이 그 사람의 다이렉트 메시지로 가며, 그 사람만 답할 수 있습니다.
elsewhere-slack-not-paired = 아직 연결된 사람이 없습니다.
elsewhere-slack-unpair = 연결 해제
elsewhere-slack-forget = Slack 토큰을 지우고 Slack 끄기
elsewhere-test-slack = Slack으로 테스트 메시지 보내기
elsewhere-slack-bot-token-shape = 봇 토큰 형식이 아닙니다. Slack의 Bot User OAuth Token은 xoxb-로 시작합니다.
elsewhere-slack-app-token-shape = 앱 수준 토큰 형식이 아닙니다. xapp-로 시작합니다 (Basic Information → App-Level Tokens).
elsewhere-slack-wrong-bot-token = Slack이 이 봇 토큰을 받지 않습니다. 앱을 워크스페이스에 설치한 뒤 OAuth & Permissions에서 다시 복사하세요.
elsewhere-slack-wrong-app-token = Slack이 이 앱 수준 토큰을 받지 않습니다. connections:write 범위로 만들고 Socket Mode를 켜세요.
elsewhere-slack-no-token = 먼저 두 토큰을 붙여 넣으세요.
elsewhere-slack-unreachable = 토큰을 확인하려 했지만 Slack에 연결할 수 없습니다: { $reason }
elsewhere-discord = Discord
elsewhere-discord-help = 각 질문을 Discord 다이렉트 메시지로 보내고 클릭 한 번으로 답할 수 있습니다. Discord 개발자 포털에서 애플리케이션을 만들고 봇 토큰을 여기에 복사한 뒤, 내가 있는 서버에 봇을 추가하고(그래야 나에게 메시지를 보낼 수 있습니다) 연결 코드를 다이렉트 메시지로 보내세요. 이 컴퓨터로 들어오는 연결은 필요 없습니다.
elsewhere-discord-enabled = 질문을 Discord로 보내기
elsewhere-discord-bot-token = 봇 토큰
elsewhere-discord-token-help = 개발자 포털의 Bot 페이지(Reset Token)에서 받습니다. secrets.json에 저장되며 다시 표시되지 않습니다. 비워 두면 저장된 토큰을 유지하고 새 연결 코드를 받습니다.
elsewhere-discord-connect = 토큰 확인 후 연결 코드 받기
elsewhere-discord-bot = 봇: @{ $bot }
elsewhere-discord-token-set = 봇 토큰이 저장되어 있습니다.
elsewhere-discord-connected = Discord에 연결되었습니다.
elsewhere-discord-not-connected = 지금은 Discord에 연결되어 있지 않습니다. Hark가 계속 시도합니다.
elsewhere-discord-code = 연결하려면 10분 안에 Discord 다이렉트 메시지로 봇에게 이것을 보내세요:
elsewhere-discord-paired = 연결된 사람이 있습니다: 질문이 그 사람의 다이렉트 메시지로 가며, 그 사람만 답할 수 있습니다.
elsewhere-discord-not-paired = 아직 연결된 사람이 없습니다.
elsewhere-discord-unpair = 연결 해제
elsewhere-discord-forget = Discord 토큰을 지우고 Discord 끄기
elsewhere-test-discord = Discord로 테스트 메시지 보내기
elsewhere-discord-token-shape = 봇 토큰 형식이 아닙니다. 개발자 포털의 토큰은 점으로 구분된 세 부분으로 되어 있습니다.
elsewhere-discord-wrong-token = Discord가 이 토큰을 받지 않습니다. 개발자 포털의 Bot 페이지에서 재설정하고 새 토큰을 복사하세요.
elsewhere-discord-no-token = 먼저 봇 토큰을 붙여 넣으세요.
elsewhere-discord-unreachable = 토큰을 확인하려 했지만 Discord에 연결할 수 없습니다: { $reason }
elsewhere-feishu = Feishu / Lark
elsewhere-feishu-help = 각 질문을 Feishu 또는 Lark의 봇 채팅에 카드로 보내고 탭 한 번으로 답할 수 있습니다. 개발자 콘솔에서 자체 앱을 만들고, 봇 기능을 추가하고, "장기 연결로 이벤트 수신"을 선택한 뒤(이 컴퓨터에 외부에서 접속할 필요가 없습니다) 버전을 게시하세요. 그다음 App ID와 App Secret을 여기에 붙여 넣고 연결 코드를 봇에게 보내세요.
elsewhere-feishu-enabled = 질문을 Feishu / Lark로 보내기
elsewhere-feishu-platform = 앱이 있는 플랫폼
elsewhere-feishu-platform-feishu = Feishu(중국, open.feishu.cn)
elsewhere-feishu-platform-lark = Lark(중국 외, open.larksuite.com)
elsewhere-feishu-platform-other = 다른 주소: { $address }
elsewhere-feishu-app-id = App ID(cli_…)
elsewhere-feishu-app-secret = App Secret
elsewhere-feishu-secret-help = 둘 다 "자격 증명 및 기본 정보" 페이지에 있습니다. secrets.json에 저장되며 다시 표시되지 않습니다. 둘 다 비워 두면 저장된 값을 유지하고 새 연결 코드를 받습니다.
elsewhere-feishu-connect = 앱 확인 후 연결 코드 받기
elsewhere-feishu-bot = 앱: { $bot }
elsewhere-feishu-token-set = App ID와 App Secret이 저장되어 있습니다.
elsewhere-feishu-connected = Feishu / Lark에 연결되었습니다.
elsewhere-feishu-not-connected = 지금은 Feishu / Lark에 연결되어 있지 않습니다. Hark가 계속 시도합니다.
elsewhere-feishu-code = 연결하려면 10분 안에 봇에게 다이렉트 메시지로 이것을 보내세요:
elsewhere-feishu-paired = 연결된 사람이 있습니다: 질문이 그 사람과 봇의 채팅으로 가며, 그 사람만 답할 수 있습니다.
elsewhere-feishu-not-paired = 아직 연결된 사람이 없습니다.
elsewhere-feishu-unpair = 연결 해제
elsewhere-feishu-forget = Feishu / Lark 앱을 지우고 끄기
elsewhere-test-feishu = Feishu / Lark로 테스트 메시지 보내기
elsewhere-feishu-app-id-shape = App ID 형식이 아닙니다. App ID는 cli_로 시작합니다(자격 증명 및 기본 정보).
elsewhere-feishu-wrong-app-id = Feishu / Lark가 이 App ID를 알지 못합니다. 다시 복사하고, 앱이 위에서 고른 플랫폼에 있는지 확인하세요.
elsewhere-feishu-wrong-secret = App Secret이 이 App ID와 맞지 않습니다. "자격 증명 및 기본 정보"에서 다시 복사하세요.
elsewhere-feishu-no-bot = 이 앱에는 아직 봇이 없습니다. 봇 기능을 추가하고 버전을 게시한 뒤 다시 시도하세요.
elsewhere-feishu-no-credentials = 먼저 App ID와 App Secret을 붙여 넣으세요.
elsewhere-feishu-unreachable = 앱을 확인하려 했지만 Feishu / Lark에 연결할 수 없습니다: { $reason }

# WeChat (설정)
elsewhere-wechat = WeChat
elsewhere-wechat-help = 질문을 텍스트로 WeChat에 보내고 거기서 답합니다: 번호, 직접 쓴 글, 또는 “건너뛰기”로 답장하세요. WeChat으로 코드를 스캔해 로그인하며, 스캔한 계정만 답할 수 있습니다.
elsewhere-wechat-enabled = 질문을 WeChat으로 보내기
elsewhere-wechat-connect = WeChat으로 로그인
elsewhere-wechat-scan = 이 코드를 WeChat으로 스캔한 뒤(발견 → 스캔) 휴대폰에서 확인하세요.
elsewhere-wechat-scanned = 스캔되었습니다. 휴대폰에서 로그인을 확인하세요.
elsewhere-wechat-needs-code = WeChat이 휴대폰에 숫자를 표시했습니다. 여기에 입력하세요.
elsewhere-wechat-wrong-code = 숫자가 맞지 않습니다. WeChat에 지금 표시된 숫자를 입력하세요.
elsewhere-wechat-code = 휴대폰에 표시된 숫자
elsewhere-wechat-send-code = 숫자 보내기
elsewhere-wechat-check = 스캔했습니다: 다시 확인
elsewhere-wechat-confirmed = 로그인했습니다.
elsewhere-wechat-expired = 로그인이 확인되기 전에 코드가 만료되었습니다. 새 코드를 받으려면 다시 로그인하세요.
elsewhere-wechat-failed = 로그인 실패: { $reason }
elsewhere-wechat-paired = 로그인됨: 질문은 스캔한 WeChat으로 가고, 그 계정만 답할 수 있습니다.
elsewhere-wechat-not-paired = 로그인되지 않았습니다.
elsewhere-wechat-session-ended = WeChat이 로그인을 끝냈습니다. 계속 질문을 받으려면 다시 로그인하세요.
elsewhere-wechat-unpair = WeChat에서 로그아웃
elsewhere-wechat-unreachable = WeChat에서 로그인 코드를 받지 못했습니다: { $reason }
elsewhere-wechat-code-shape = WeChat이 휴대폰에 표시한 숫자를 입력하세요.
elsewhere-test-wechat = WeChat으로 테스트 메시지 보내기

# 빠른 답장
rules-heading = 기억한 결정
rules-help = ‘항상 허용’ 또는 ‘항상 거부’로 답한 권한 요청입니다. 같은 에이전트가 같은 호출을 다시 요청하면 Hark가 묻지 않고 바로 답하며, 기록에 그렇게 남습니다.
rules-none = 아직 기억한 결정이 없습니다.
rules-allowed = 항상 허용
rules-denied = 항상 거부
rules-what = { $agent }: { $tool }
rules-take-back = 취소
presets-heading = 빠른 답장
presets-help = 자주 입력하는 문장을 한 줄에 하나씩, 원하는 순서대로 적으세요. 질문 화면에서 입력란 아래 버튼을 누르거나 입력 중에 Alt+1~Alt+9를 누르면 삽입됩니다. 추가, 수정, 순서 변경, 삭제는 여기서 줄을 고치면 됩니다.
presets-placeholder = 좋아 보여요. 진행하세요.
presets-save = 빠른 답장 저장
presets-invalid = 빠른 답장은 최대 50개, 각각 500자까지입니다.
presets-label = 빠른 답장

## Agent sessions (SPEC §20): the Agents page and the notices of an agent that finished or waits.
session-state = { $state ->
        [working] 작업 중
        [asking] Hark에서 질문 중
        [waiting] 자체 창에서 기다리는 중
        [finished] 차례를 마침
       *[ended] 종료됨
    }
session-notice-finished = { $agent }이(가) 차례를 마쳤습니다
session-notice-waiting = { $agent }이(가) 자체 창에서 기다리고 있습니다
session-notice-open = 에이전트 목록 열기
nav-agents = 에이전트
agents-title = 내 에이전트
agents-loading = 에이전트를 불러오는 중…
agents-empty = 아직 Hark에 상태를 알린 에이전트가 없습니다. 에이전트에 Hark 훅을 추가하면(Hark 안내서의 “에이전트” 참고) 작업 중, 응답 대기, 완료 상태가 여기에 표시됩니다.
agents-questions = 답변을 기다리는 질문
settings-continue-wait = 마친 에이전트가 답장을 기다리는 시간(초)
settings-continue-wait-help = Claude Code, Codex, Gemini CLI, Cursor가 차례를 마치면 그 훅이 이 시간 동안 당신의 메시지를 기다리고, 메시지가 오면 에이전트가 이어서 작업합니다. 0이면 기다리지 않으며, 이미 도착한 메시지는 그대로 이어서 전달됩니다.
settings-continue-wait-invalid = 0에서 86400(하루) 사이의 정수 초여야 합니다.
settings-session-idle = 조용해진 에이전트를 잊기까지의 시간(초)
settings-session-idle-help = 이 시간 동안 소식이 없는 에이전트는 에이전트 목록에서 사라집니다.
settings-session-idle-invalid = 60에서 604800(일주일) 사이의 정수 초여야 합니다.
settings-notify-waiting = 에이전트가 자체 창에서 기다릴 때 알리기
settings-notify-finished = 에이전트가 차례를 마쳤을 때 알리기
